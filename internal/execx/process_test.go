package execx

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// slack absorbs scheduling delays on a loaded two-core machine under -race.
const slack = 2 * time.Second

func TestRunTimeoutKillsStubbornChild(t *testing.T) {
	const timeout, grace = time.Second, 300 * time.Millisecond
	r, name := newHelperRunner(t, grace)
	cmd := helperCmd(name, "ignoreterm")
	cmd.Timeout = timeout
	start := time.Now()
	res, err := r.Run(context.Background(), cmd)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v (a timeout is reported in the Result)", err)
	}
	if !res.TimedOut || !res.Signaled || res.ExitCode != -1 {
		t.Errorf("result = %+v, want TimedOut, Signaled, exit -1", res)
	}
	// It ignores SIGTERM, so only the SIGKILL after the grace ends it.
	if elapsed < timeout+grace || elapsed > timeout+grace+slack {
		t.Errorf("Run took %v, want between %v and %v", elapsed, timeout+grace, timeout+grace+slack)
	}
}

func TestRunKillsGrandchildren(t *testing.T) {
	r, name := newHelperRunner(t, 200*time.Millisecond)
	tests := []struct {
		name     string
		mode     string
		timeout  time.Duration
		timedOut bool
	}{
		// The child exits at once; its grandchild still holds stdout.
		{name: "orphan holding stdout", mode: "orphan", timeout: time.Minute},
		// Both keep running until the timeout stops the group.
		{name: "family on timeout", mode: "family", timeout: 500 * time.Millisecond, timedOut: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := helperCmd(name, tc.mode)
			cmd.Timeout = tc.timeout
			start := time.Now()
			res, err := r.Run(context.Background(), cmd)
			elapsed := time.Since(start)
			if err != nil {
				t.Fatalf("Run: %v", err)
			}
			gc := firstPid(t, res.Stdout)
			killLater(t, gc)
			if res.TimedOut != tc.timedOut {
				t.Errorf("TimedOut = %v, want %v", res.TimedOut, tc.timedOut)
			}
			if limit := min(tc.timeout, time.Second) + slack; elapsed > limit {
				t.Errorf("Run took %v, want under %v", elapsed, limit)
			}
			if !waitGone(gc) {
				t.Errorf("grandchild %d is still alive after Run returned", gc)
			}
		})
	}
}

// TestRunReturnsDespiteEscapee: a grandchild that left the group (setsid)
// cannot be signalled with it, but must not keep Run waiting on its pipe.
func TestRunReturnsDespiteEscapee(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	cmd := helperCmd(name, "escape")
	cmd.Timeout = time.Minute
	start := time.Now()
	res, err := r.Run(context.Background(), cmd)
	elapsed := time.Since(start)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	killLater(t, firstPid(t, res.Stdout))
	if limit := drainDelay + slack; elapsed > limit || res.ExitCode != 0 {
		t.Errorf("Run took %v and exited %d, want under %v and 0", elapsed, res.ExitCode, limit)
	}
}

func TestRunCapsFloodWithBoundedMemory(t *testing.T) {
	const total, limit = 200 << 20, 64 << 10
	r, name := newHelperRunner(t, 0)
	cmd := helperCmd(name, "flood", "209715200")
	cmd.MaxOutput = limit
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res, err := r.Run(context.Background(), cmd)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if len(res.Stdout) != limit || !res.StdoutTruncated || res.StdoutBytes != total || res.ExitCode != 0 {
		t.Errorf("kept %d bytes, truncated %v, counted %d, exit %d; want %d, true, %d, 0",
			len(res.Stdout), res.StdoutTruncated, res.StdoutBytes, res.ExitCode, limit, total)
	}
	// Keeping the output, or a slice per write, would allocate over 200 MB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 32<<20 {
		t.Errorf("allocated %d bytes while draining %d, want far less", alloc, total)
	}
}

func TestRunContextCancel(t *testing.T) {
	r, name := newHelperRunner(t, 300*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	res, err := r.Run(ctx, helperCmd(name, "sleep"))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Run error = %v, want context.DeadlineExceeded", err)
	}
	if elapsed := time.Since(start); elapsed > 300*time.Millisecond+slack {
		t.Errorf("Run took %v after the context ended", elapsed)
	}
	if !res.Signaled || res.TimedOut {
		t.Errorf("result = %+v, want Signaled and not TimedOut", res)
	}

	done, cancelNow := context.WithCancel(context.Background())
	cancelNow()
	if _, err := r.Run(done, helperCmd(name, "sleep")); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a done context: error = %v, want context.Canceled", err)
	}
}

// startReady starts mode and waits for the helper's "ready" line.
func startReady(t *testing.T, r *Runner, cmd Cmd) *Process {
	t.Helper()
	ready := make(chan struct{}, 1)
	cmd.OnStdoutLine = func(line []byte) {
		if string(line) == "ready" {
			ready <- struct{}{}
		}
	}
	p, err := r.Start(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	select {
	case <-ready:
	case <-time.After(10 * time.Second):
		p.Stop(0)
		t.Fatal("helper never became ready")
	}
	return p
}

func TestProcessStop(t *testing.T) {
	const grace = 300 * time.Millisecond
	r, name := newHelperRunner(t, 0)
	p := startReady(t, r, helperCmd(name, "ignoreterm"))
	start := time.Now()
	p.Stop(grace)
	if elapsed := time.Since(start); elapsed < grace || elapsed > grace+slack {
		t.Errorf("Stop took %v, want between %v and %v", elapsed, grace, grace+slack)
	}
	res, err := p.Wait()
	if err != nil || !res.Signaled || res.TimedOut {
		t.Errorf("Wait = %+v, %v; want Signaled, not TimedOut, no error", res, err)
	}
	if again, _ := p.Wait(); again.Duration != res.Duration {
		t.Errorf("a second Wait returned %+v, want the same result", again)
	}
}

func TestStopSignalLetsChildFinish(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	cmd := helperCmd(name, "trap")
	cmd.StopSignal = syscall.SIGINT
	cmd.Timeout = time.Second
	res, err := r.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if !res.TimedOut || res.Signaled || res.ExitCode != 0 || string(res.Stdout) != "ready\ninterrupted\n" {
		t.Errorf("result = %+v (stdout %q), want a timed-out clean exit after SIGINT", res, res.Stdout)
	}
}

func TestStreamingLines(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	var lines []string
	cmd := helperCmd(name, "lines")
	cmd.MaxOutput = 5
	cmd.OnStdoutLine = func(line []byte) { lines = append(lines, string(line)) }
	res, err := r.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := strings.Join(lines, "|"), "one|two||last"; got != want {
		t.Errorf("lines = %q, want %q", got, want)
	}
	if string(res.Stdout) != "one\nt" || !res.StdoutTruncated || res.StdoutBytes != 13 {
		t.Errorf("stdout %q truncated %v bytes %d, want %q true 13", res.Stdout, res.StdoutTruncated, res.StdoutBytes, "one\nt")
	}
}

// A child's NUL-ended records reach OnStdoutLine whole, newlines and all,
// while what is kept stays capped as for lines.
func TestStreamingNULRecords(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	var records []string
	cmd := helperCmd(name, "records")
	cmd.MaxOutput = 5
	cmd.StdoutNUL = true
	cmd.OnStdoutLine = func(rec []byte) { records = append(records, string(rec)) }
	res, err := r.Run(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	if got, want := records, []string{"./a\nb", "./c", "", "./\n", "last\n"}; !slices.Equal(got, want) {
		t.Errorf("records = %q, want %q", got, want)
	}
	if string(res.Stdout) != "./a\nb" || !res.StdoutTruncated || res.StdoutBytes != 20 {
		t.Errorf("stdout %q truncated %v bytes %d, want %q true 20", res.Stdout, res.StdoutTruncated, res.StdoutBytes, "./a\nb")
	}
}

// TestChildSurvivesStarterThread checks the spawner: a child must not get
// its parent-death signal when the goroutine that asked for it ends on a
// locked thread, which makes the Go runtime end that thread.
func TestChildSurvivesStarterThread(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	type started struct {
		p   *Process
		err error
		tid int
	}
	var s started
	for s.p == nil {
		ch := make(chan started)
		go func() {
			runtime.LockOSThread()
			tid := syscall.Gettid()
			if tid == os.Getpid() {
				// The runtime never ends the main thread; try from another.
				runtime.UnlockOSThread()
				ch <- started{tid: tid}
				return
			}
			p, err := r.Start(context.Background(), helperCmd(name, "sleep"))
			ch <- started{p: p, err: err, tid: tid}
		}() // returns still locked: the runtime ends this thread
		if s = <-ch; s.err != nil {
			t.Fatalf("Start: %v", s.err)
		}
	}
	defer s.p.Stop(0)
	if !waitGone(s.tid) {
		t.Fatalf("thread %d did not end with its locked goroutine", s.tid)
	}
	select {
	case <-s.p.Done():
		res, _ := s.p.Wait()
		t.Fatalf("child died with the thread that started it: %+v", res)
	case <-time.After(300 * time.Millisecond):
	}
}

// TestChildDiesWithServer kills a stand-in server and expects the child it
// started through a Runner, in its own process group, to die too.
func TestChildDiesWithServer(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	server := exec.Command(exe)
	server.Env = helperEnvFor("server")
	out, err := server.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	killLater(t, server.Process.Pid)
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		_ = server.Process.Kill()
		_ = server.Wait()
		t.Fatalf("reading the child pid from the server: %v", err)
	}
	child := firstPid(t, []byte(line))
	killLater(t, child)
	if gone(child) {
		t.Fatalf("child %d not running before the server was killed", child)
	}
	_ = server.Process.Kill()
	_ = server.Wait()
	if !waitGone(child) {
		t.Errorf("child %d outlived its server", child)
	}
}
