package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The host files the sampler and perf_use_check judge a CPU by, and that
// change between two readings: /proc/stat's cumulative jiffies (busy
// share) with its run queue, and the PSI total= counters (stall share of
// the wall time between readings).
var treeCounterFiles = []string{"stat", "pressure/cpu", "pressure/memory", "pressure/io"}

// The host files read once per reading that the test keeps as they were
// copied: their counters stand still, which the checks judge as no
// traffic, no paging and no OOM kill.
var treeStaticFiles = []string{"meminfo", "vmstat", "diskstats", "uptime", "cpuinfo", "loadavg",
	"net/dev", "net/snmp", "net/netstat", "sys/kernel/pid_max", "sys/kernel/osrelease"}

// treeTick is the pace of the capture and of its replay.
const treeTick = 250 * time.Millisecond

// capture is a few snapshots, treeTick apart, of the counter files of a
// procfs, and one copy of its static files: what a host looked like over
// a second or two.
type capture struct {
	snapshots []map[string]string // counter file -> content, oldest first
	static    map[string]string
}

// captureProc reads n snapshots of /proc's counter files, treeTick apart.
func captureProc(t *testing.T, n int) capture {
	t.Helper()
	c := capture{static: map[string]string{}}
	for _, name := range treeStaticFiles {
		c.static[name] = readProc(t, name)
	}
	next := time.Now()
	for range n {
		time.Sleep(time.Until(next))
		next = next.Add(treeTick)
		snap := map[string]string{}
		for _, name := range treeCounterFiles {
			snap[name] = readProc(t, name)
		}
		c.snapshots = append(c.snapshots, snap)
	}
	return c
}

func readProc(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", name))
	if err != nil {
		t.Fatalf("capturing /proc/%s: %v", name, err)
	}
	return string(b)
}

// busyPercent is the share of the CPUs' jiffies spent neither idle nor in
// iowait between the first and the last snapshot, as perf_use_check
// counts CPU utilisation.
func (c capture) busyPercent(t *testing.T) float64 {
	t.Helper()
	cpu := func(stat string) (busy, total int64) {
		for _, line := range strings.Split(stat, "\n") {
			f := strings.Fields(line)
			if len(f) < 9 || f[0] != "cpu" {
				continue
			}
			for i, s := range f[1:9] { // user nice system idle iowait irq softirq steal
				v, err := strconv.ParseInt(s, 10, 64)
				if err != nil {
					t.Fatalf("the cpu line of /proc/stat: %v", err)
				}
				total += v
				if i != 3 && i != 4 {
					busy += v
				}
			}
			return busy, total
		}
		t.Fatal("no cpu line in /proc/stat")
		return 0, 0
	}
	b0, t0 := cpu(c.snapshots[0]["stat"])
	b1, t1 := cpu(c.snapshots[len(c.snapshots)-1]["stat"])
	if t1 <= t0 {
		t.Fatalf("/proc/stat's jiffies did not advance over the capture")
	}
	return float64(b1-b0) / float64(t1-t0) * 100
}

// calmCapture is a host whose CPUs stay idle: this machine's files as they
// are now, with one runnable task (the reader) and, from one snapshot to
// the next, only idle jiffies added (a quarter second of every CPU) and no
// stall. The test judges its calm hosts from these rather than from this
// machine, which other work may keep busy.
func calmCapture(t *testing.T) capture {
	t.Helper()
	now := captureProc(t, 1)
	first := now.snapshots[0]
	first["stat"] = procsRunning.ReplaceAllString(first["stat"], "procs_running 1")
	second := map[string]string{}
	for name, body := range first {
		second[name] = body
	}
	perTick := int64(treeTick / (10 * time.Millisecond)) // USER_HZ is 100
	cpus := int64(strings.Count(first["stat"], "\ncpu")) // the cpuN lines
	var lines []string
	for _, line := range strings.Split(first["stat"], "\n") {
		f := strings.Fields(line)
		if len(f) > 4 && strings.HasPrefix(f[0], "cpu") {
			idle, err := strconv.ParseInt(f[4], 10, 64)
			if err != nil {
				t.Fatalf("the %s line of /proc/stat: %v", f[0], err)
			}
			add := perTick
			if f[0] == "cpu" {
				add *= cpus
			}
			f[4] = strconv.FormatInt(idle+add, 10)
			line = strings.Join(f, " ")
		}
		lines = append(lines, line)
	}
	second["stat"] = strings.Join(lines, "\n")
	return capture{snapshots: []map[string]string{first, second}, static: now.static}
}

// liveTree is a procfs and sysfs for [host] proc and sys whose counters
// advance: a static copy would give the checks zero deltas, so every
// treeTick the tree's counter files get the next captured interval's
// growth added to their cumulative counters (cycling through the
// intervals), with that interval's gauges (run queue, PSI averages), as
// fast as they grew when captured.
type liveTree struct {
	proc, sys string
	c         capture
	files     map[string]*counterFile
}

// counterFile is one counter file being replayed: its current counters,
// and each captured interval's growth of them.
type counterFile struct {
	now    [][]int64   // line -> token -> value, for counter tokens
	deltas [][][]int64 // interval -> line -> token -> growth
}

// procWord is a whitespace-separated word of a procfs line.
var procWord = regexp.MustCompile(`\S+`)

// counterToken reports whether the word at index i of a line whose first
// word is head is a cumulative counter, and gives its number. Gauges (the
// run queue, PSI's averages, the boot time) are not.
func counterToken(head string, i int, word string) (int64, bool) {
	if i == 0 {
		return 0, false
	}
	switch {
	case strings.HasPrefix(head, "cpu"), head == "ctxt", head == "processes", head == "intr", head == "softirq":
		v, err := strconv.ParseInt(word, 10, 64)
		return v, err == nil
	case head == "some" || head == "full":
		s, ok := strings.CutPrefix(word, "total=")
		if !ok {
			return 0, false
		}
		v, err := strconv.ParseInt(s, 10, 64)
		return v, err == nil
	}
	return 0, false
}

// counters are the counter tokens of every line of a file's content.
func counters(body string) [][]int64 {
	var out [][]int64
	for _, line := range strings.Split(body, "\n") {
		words := procWord.FindAllString(line, -1)
		row := make([]int64, len(words))
		for i, w := range words {
			row[i], _ = counterToken(words[0], i, w)
		}
		out = append(out, row)
	}
	return out
}

// render is a snapshot's content with its counter tokens replaced by now.
func render(body string, now [][]int64) string {
	lines := strings.Split(body, "\n")
	for li, line := range lines {
		i := 0
		var head string
		lines[li] = procWord.ReplaceAllStringFunc(line, func(w string) string {
			defer func() { i++ }()
			if i == 0 {
				head = w
			}
			if _, ok := counterToken(head, i, w); !ok || li >= len(now) || i >= len(now[li]) {
				return w
			}
			if strings.HasPrefix(w, "total=") {
				return "total=" + strconv.FormatInt(now[li][i], 10)
			}
			return strconv.FormatInt(now[li][i], 10)
		})
	}
	return strings.Join(lines, "\n")
}

// newLiveTree writes the capture's first snapshot and static files into a
// fresh tree and replays its intervals until the test ends.
func newLiveTree(t *testing.T, c capture) *liveTree {
	t.Helper()
	if len(c.snapshots) < 2 {
		t.Fatal("a live tree needs two snapshots at least")
	}
	dir := t.TempDir()
	lt := &liveTree{proc: filepath.Join(dir, "proc"), sys: filepath.Join(dir, "sys"), c: c, files: map[string]*counterFile{}}
	for name, body := range c.static {
		write(t, filepath.Join(lt.proc, name), body)
	}
	if err := os.MkdirAll(filepath.Join(lt.sys, "block"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range treeCounterFiles {
		cf := &counterFile{now: counters(c.snapshots[0][name])}
		for k := 1; k < len(c.snapshots); k++ {
			a, b := counters(c.snapshots[k-1][name]), counters(c.snapshots[k][name])
			if len(a) != len(b) {
				t.Fatalf("/proc/%s changed shape during the capture: %d then %d lines", name, len(a), len(b))
			}
			d := make([][]int64, len(b))
			for li := range b {
				if len(a[li]) != len(b[li]) {
					t.Fatalf("/proc/%s line %d changed shape during the capture", name, li+1)
				}
				d[li] = make([]int64, len(b[li]))
				for i := range b[li] {
					d[li][i] = b[li][i] - a[li][i]
				}
			}
			cf.deltas = append(cf.deltas, d)
		}
		lt.files[name] = cf
		lt.writeFile(t, name, c.snapshots[0][name], cf.now)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go lt.replay(t, stop, done)
	t.Cleanup(func() { close(stop); <-done })
	return lt
}

// replay adds interval k's growth at the k-th tick, cycling through the
// captured intervals, until stop is closed.
func (lt *liveTree) replay(t *testing.T, stop <-chan struct{}, done chan<- struct{}) {
	defer close(done)
	tick := time.NewTicker(treeTick)
	defer tick.Stop()
	intervals := len(lt.c.snapshots) - 1
	for k := 0; ; k++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		i := k % intervals
		for name, cf := range lt.files {
			for li, row := range cf.deltas[i] {
				for ti, d := range row {
					cf.now[li][ti] += d
				}
			}
			if err := lt.writeFileErr(name, lt.c.snapshots[i+1][name], cf.now); err != nil {
				t.Errorf("replaying the host tree: %v", err)
				return
			}
		}
	}
}

func (lt *liveTree) writeFile(t *testing.T, name, body string, now [][]int64) {
	t.Helper()
	if err := lt.writeFileErr(name, body, now); err != nil {
		t.Fatal(err)
	}
}

// writeFileErr replaces the file whole (a rename), so that a reader never
// sees half of it.
func (lt *liveTree) writeFileErr(name, body string, now [][]int64) error {
	path := filepath.Join(lt.proc, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp := path + ".next"
	if err := os.WriteFile(tmp, []byte(render(body, now)), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// hostTreeConfig is the [host] section that points an instance at the tree.
func (lt *liveTree) hostTreeConfig() string {
	return fmt.Sprintf("[host]\nproc = %q\nsys = %q\n", lt.proc, lt.sys)
}
