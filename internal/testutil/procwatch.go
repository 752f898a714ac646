package testutil

import (
	"bytes"
	"os"
	"strconv"
	"sync"
	"time"
)

// ProcWatch samples, from /proc, how many children named Child a process
// has and its resident memory, at most every Every, between Start and Stop.
type ProcWatch struct {
	PID   int
	Child string        // the children's comm, e.g. "rg"
	Every time.Duration // default 5 ms

	stop chan struct{}
	done chan struct{}

	mu           sync.Mutex
	peakChildren int
	peakRSS      int64
	samples      int
}

// Start begins sampling in a goroutine.
func (w *ProcWatch) Start() {
	w.stop, w.done = make(chan struct{}), make(chan struct{})
	every := w.Every
	if every <= 0 {
		every = 5 * time.Millisecond
	}
	go func() {
		defer close(w.done)
		for {
			w.sample()
			select {
			case <-w.stop:
				return
			case <-time.After(every):
			}
		}
	}()
}

// Stop ends sampling, after one last sample.
func (w *ProcWatch) Stop() {
	close(w.stop)
	<-w.done
}

// PeakChildren is the most children named Child seen at once.
func (w *ProcWatch) PeakChildren() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peakChildren
}

// Samples is how many times /proc was read.
func (w *ProcWatch) Samples() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.samples
}

// PeakRSS is the process's high-water resident set (VmHWM) in bytes, which
// the kernel keeps itself, or the highest VmRSS sampled if that is higher
// or VmHWM cannot be read.
func (w *ProcWatch) PeakRSS() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return max(w.peakRSS, statusKB(w.PID, "VmHWM:")<<10)
}

func (w *ProcWatch) sample() {
	n := countChildren(w.PID, w.Child)
	rss := statusKB(w.PID, "VmRSS:") << 10
	w.mu.Lock()
	defer w.mu.Unlock()
	w.samples++
	w.peakChildren = max(w.peakChildren, n)
	w.peakRSS = max(w.peakRSS, rss)
}

// countChildren counts the processes whose parent is pid and whose comm is
// name, reading every /proc/N/stat (proc(5): "pid (comm) state ppid ...").
func countChildren(pid int, name string) int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0
	}
	n := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
		if open < 0 || close < open {
			continue
		}
		f := bytes.Fields(b[close+1:])
		if len(f) < 2 || string(b[open+1:close]) != name {
			continue
		}
		if ppid, err := strconv.Atoi(string(f[1])); err == nil && ppid == pid {
			n++
		}
	}
	return n
}

// statusKB reads one "Key:   123 kB" line of /proc/pid/status; 0 when
// absent.
func statusKB(pid int, key string) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for line := range bytes.Lines(b) {
		if rest, ok := bytes.CutPrefix(line, []byte(key)); ok {
			f := bytes.Fields(rest)
			if len(f) > 0 {
				v, _ := strconv.ParseInt(string(f[0]), 10, 64)
				return v
			}
		}
	}
	return 0
}
