package profile

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/bpfprog/bpfprogtest"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// FUTEX_WAIT and FUTEX_WAKE on a process-private word (linux/futex.h).
const (
	futexWaitPrivate = 0 | 128
	futexWakePrivate = 1 | 128
)

// pipeAndFutex is the "waits" workload. Thread W reads its stdin, a pipe
// the test holds, a byte at a time; each byte makes it wake thread F,
// blocked in FUTEX_WAIT, which answers with a byte on stdout. W and F
// block nowhere else. The first line out is "ready W F", their tids.
func pipeAndFutex() {
	var word uint32
	tids := make(chan int)
	go func() {
		runtime.LockOSThread()
		tids <- unix.Gettid()
		for ack := []byte{'.'}; ; {
			for atomic.LoadUint32(&word) == 0 {
				futex(&word, futexWaitPrivate, 0)
			}
			atomic.StoreUint32(&word, 0)
			if _, err := os.Stdout.Write(ack); err != nil {
				os.Exit(0)
			}
		}
	}()
	f := <-tids
	runtime.LockOSThread()
	fmt.Printf("ready %d %d\n", unix.Gettid(), f)
	for b := make([]byte, 1); ; {
		if _, err := os.Stdin.Read(b); err != nil {
			os.Exit(0)
		}
		atomic.StoreUint32(&word, 1)
		futex(&word, futexWakePrivate, 1)
	}
}

func futex(addr *uint32, op, val int) {
	_, _, _ = unix.Syscall6(unix.SYS_FUTEX, uintptr(unsafe.Pointer(addr)), uintptr(op), uintptr(val), 0, 0, 0)
}

// waitsLoad is a running "waits" workload.
type waitsLoad struct {
	pid, w, f int
	in        io.Writer
	acks      *bufio.Reader
}

func startWaits(t *testing.T) *waitsLoad {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), workloadEnv+"=waits")
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, _ := cmd.StdoutPipe()
	in, _ := cmd.StdinPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	l := &waitsLoad{pid: cmd.Process.Pid, in: in, acks: bufio.NewReader(out)}
	line, _ := l.acks.ReadString('\n')
	if _, err := fmt.Sscanf(line, "ready %d %d\n", &l.w, &l.f); err != nil {
		t.Fatalf("the waits workload said %q: %v", line, err)
	}
	return l
}

// wchan reads a thread's wait channel; "" while it runs.
func (l *waitsLoad) wchan(tid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(l.pid) + "/task/" + strconv.Itoa(tid) + "/wchan")
	if s := strings.TrimSpace(string(b)); s != "0" {
		return s
	}
	return ""
}

// blocked waits until W and F both sleep, and returns where.
func (l *waitsLoad) blocked() (map[int]string, error) {
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(time.Millisecond) {
		w, f := l.wchan(l.w), l.wchan(l.f)
		if w != "" && f != "" {
			return map[int]string{l.w: w, l.f: f}, nil
		}
		if time.Now().After(deadline) {
			return nil, fmt.Errorf("W and F did not both block within 20 s (wchan %q, %q)", w, f)
		}
	}
}

// pokes is what the test did to the workload during the window, by its
// own clock: writes[i] began the i-th write, acks[i] is when F's answer to
// it arrived, asleep[i] when both threads were seen blocked again after it.
type pokes struct {
	start                time.Time
	writes, acks, asleep []time.Time
	wchans               map[int]string // where each thread slept, every time it was looked at
	err                  error
}

// poke writes a byte at once, then one after each hold, each time waiting
// for the answer and for both threads to block again.
func (l *waitsLoad) poke(holds []time.Duration, wchans map[int]string) (p pokes) {
	p = pokes{start: time.Now(), wchans: wchans}
	for i := range len(holds) + 1 {
		if i > 0 {
			time.Sleep(holds[i-1])
		}
		p.writes = append(p.writes, time.Now())
		if _, err := l.in.Write([]byte{'x'}); err != nil {
			p.err = err
			return p
		}
		if _, err := l.acks.ReadByte(); err != nil {
			p.err = err
			return p
		}
		p.acks = append(p.acks, time.Now())
		now, err := l.blocked()
		if err != nil {
			p.err = err
			return p
		}
		p.asleep = append(p.asleep, time.Now())
		for tid, w := range now {
			if w != wchans[tid] {
				p.err = fmt.Errorf("thread %d slept in %s, then in %s", tid, wchans[tid], w)
			}
		}
	}
	return p
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// The scenario: a process blocked on a pipe the test holds is said
// to wait in the function /proc/PID/wchan names (anon_pipe_read here), not
// "sleeping", with its episodes, their total, mean and maximum between
// bounds the test takes from its own clock, and the test as its waker; the
// thread it wakes is said to wait on a futex, woken by it.
func TestOffCPUNamesWhatThreadsWaitOnLive(t *testing.T) {
	s := newSet(t)
	bpfprogtest.Require(t)
	testutil.ExclusiveLoad(t)
	l := startWaits(t)
	wchans, err := l.blocked()
	if err != nil {
		t.Fatal(err)
	}
	const window = 6 * time.Second
	holds := []time.Duration{700 * time.Millisecond, 1500 * time.Millisecond}
	done := make(chan pokes, 1)
	// The trace reports progress once attached, then every 250 ms until it
	// detaches: the pokes start at the first report, and the last report
	// received is a time the window was still open.
	var once sync.Once
	var open atomic.Int64 // the last report, in Unix nanoseconds
	c0 := time.Now()
	out := tooltest.MustRunWatched[offCPUOut](t, context.Background(), s.offCPU(),
		map[string]any{"pid": l.pid, "duration_seconds": int(window / time.Second)},
		func(float64, float64) {
			open.Store(time.Now().UnixNano())
			once.Do(func() { go func() { done <- l.poke(holds, wchans) }() })
		})
	r := time.Now()
	p := <-done
	if p.err != nil {
		t.Fatal(p.err)
	}
	n := len(p.writes)
	lastOpen := time.Unix(0, open.Load())
	if p.asleep[n-1].After(lastOpen) {
		t.Fatalf("the pokes ended %v after the last progress report: they may have outlasted the window, and the test cannot tell (a machine too loaded for its timeline)", p.asleep[n-1].Sub(lastOpen))
	}
	if out.Mechanism != mechanismEBPF || out.DurationSeconds < window.Seconds() || out.DurationSeconds > r.Sub(c0).Seconds() {
		t.Fatalf("mechanism %q, window %.3f s; want ebpf, at least %v and at most the call's %v", out.Mechanism, out.DurationSeconds, window, r.Sub(c0))
	}

	// Bounds of the waits, from the test's clock. An episode between writes
	// i-1 and i began after write i-1 and before both threads were seen
	// asleep again, and ended after write i began and before its answer
	// came. The first began before the window and counts from its start
	// (not before the call, not after the trace said it had attached); the
	// last still runs at its end (not before the last progress report, not
	// after the call returned).
	lower := ms(p.writes[0].Sub(p.start)) + ms(lastOpen.Sub(p.asleep[n-1]))
	upper := ms(p.acks[0].Sub(c0)) + ms(r.Sub(p.writes[n-1]))
	maxLower, maxUpper := 0.0, max(ms(p.acks[0].Sub(c0)), ms(r.Sub(p.writes[n-1])))
	for i := 1; i < n; i++ {
		lower += ms(p.writes[i].Sub(p.asleep[i-1]))
		upper += ms(p.acks[i].Sub(p.writes[i-1]))
		maxLower = max(maxLower, ms(p.writes[i].Sub(p.asleep[i-1])))
		maxUpper = max(maxUpper, ms(p.acks[i].Sub(p.writes[i-1])))
	}
	t.Logf("%d writes; wait channels %v; total within [%.1f, %.1f] ms, longest within [%.1f, %.1f] ms", n, wchans, lower, upper, maxLower, maxUpper)

	for _, c := range []struct {
		name, kind string
		tid        int
		wakerPID   int // the process that woke it
	}{
		{"W, reading the pipe", "pipe", l.w, os.Getpid()},
		{"F, waiting on the futex", "futex", l.f, l.pid},
	} {
		task, ok := findTask(out.Tasks, c.tid)
		if !ok {
			t.Errorf("%s: thread %d is not listed: %+v", c.name, c.tid, out.Tasks)
			continue
		}
		want := wchans[c.tid]
		if task.TopReason != want || len(task.Waits) == 0 || task.Waits[0].Reason != want {
			t.Errorf("%s: top reason %q, want %q, the wait channel the test read: %+v", c.name, task.TopReason, want, task)
			continue
		}
		w := task.Waits[0]
		if w.Kind != c.kind || w.State != "sleeping" || len(w.Stack) == 0 || w.Stack[0] != want {
			t.Errorf("%s: kind %q, state %q, stack %v; want %s, sleeping, from %s", c.name, w.Kind, w.State, w.Stack, c.kind, want)
		}
		// F may also sleep on a futex in the Go runtime, woken by another
		// of its threads; W blocks on the pipe only.
		if w.Episodes < n+1 || c.kind == "pipe" && w.Episodes != n+1 || w.BeganBefore != 1 || !w.Waiting {
			t.Errorf("%s: %d episodes (%d began before the window, still waiting %v); want %d, 1 of them before the window, 1 still going", c.name, w.Episodes, w.BeganBefore, w.Waiting, n+1)
		}
		if w.TotalMS < lower || w.TotalMS > upper || w.TotalMS > task.OffCPUMS || task.OffCPUMS > 1000*out.DurationSeconds+1 {
			t.Errorf("%s: waited %.3f ms in all, outside [%.1f, %.1f], or above its %.3f ms off the CPU, or that above the %.3f s window",
				c.name, w.TotalMS, lower, upper, task.OffCPUMS, out.DurationSeconds)
		}
		if w.MaxMS < maxLower || w.MaxMS > maxUpper {
			t.Errorf("%s: longest wait %.3f ms, outside [%.1f, %.1f]", c.name, w.MaxMS, maxLower, maxUpper)
		}
		if mean := w.TotalMS / float64(w.Episodes); w.MeanMS < mean-0.01 || w.MeanMS > mean+0.01 {
			t.Errorf("%s: mean %.3f ms, want total/episodes %.3f", c.name, w.MeanMS, mean)
		}
		// W woke F each time; the Go runtime's threads (of F's process
		// too) may have woken it from its own futex waits besides.
		if len(w.Wakers) == 0 || w.Wakers[0].PID != c.wakerPID || w.Wakers[0].Episodes < n || c.kind == "pipe" && w.Wakers[0].Episodes != n {
			t.Errorf("%s: wakers %+v; want pid %d first, with %d episodes", c.name, w.Wakers, c.wakerPID, n)
		}
	}
	if len(out.Findings) == 0 || !strings.Contains(strings.Join(out.Findings, "\n"), wchans[l.w]) {
		t.Errorf("no finding names %s: %q", wchans[l.w], out.Findings)
	}
}

func findTask(tasks []waitTask, tid int) (waitTask, bool) {
	for _, t := range tasks {
		if t.TID == tid {
			return t, true
		}
	}
	return waitTask{}, false
}
