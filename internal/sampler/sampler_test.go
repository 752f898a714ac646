package sampler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// fakeProc is a /proc tree whose /proc/stat the test advances: every
// version adds 30 jiffies of user time and 70 of idle on each of two CPUs,
// so any two readings give 30% busy, and 3 tasks run (2 besides the
// reader: a run queue of 1 per CPU).
type fakeProc struct {
	dir string
	mu  sync.Mutex
	n   int
}

func newFakeProc(t *testing.T) *fakeProc {
	f := &fakeProc{dir: t.TempDir()}
	meminfo := "MemTotal: 1000 kB\nMemFree: 500 kB\nMemAvailable: 600 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n"
	if err := os.WriteFile(filepath.Join(f.dir, "meminfo"), []byte(meminfo), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.dir, "loadavg"), []byte("0.50 0.40 0.30 3/100 1234\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.advance(t)
	return f
}

// advance writes the next version of stat, atomically.
func (f *fakeProc) advance(t testing.TB) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	u, i := 30*f.n, 70*f.n
	stat := fmt.Sprintf("cpu  %d 0 0 %d 0 0 0 0 0 0\ncpu0 %d 0 0 %d 0 0 0 0 0 0\ncpu1 %d 0 0 %d 0 0 0 0 0 0\nctxt %d\nprocs_running 3\nprocs_blocked 0\n",
		2*u, 2*i, u, i, u, i, 100*f.n)
	tmp := filepath.Join(f.dir, "stat.tmp")
	if err := os.WriteFile(tmp, []byte(stat), 0o644); err != nil {
		t.Error(err)
		return
	}
	if err := os.Rename(tmp, filepath.Join(f.dir, "stat")); err != nil {
		t.Error(err)
	}
}

// keepAdvancing advances stat every d until the test ends.
func (f *fakeProc) keepAdvancing(t *testing.T, d time.Duration) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		tk := time.NewTicker(d)
		defer tk.Stop()
		for {
			select {
			case <-done:
				return
			case <-tk.C:
				f.advance(t)
			}
		}
	}()
	t.Cleanup(func() { close(done); <-stopped })
}

func newSampler(t *testing.T, proc string, o *Options) *Sampler {
	s := New(hostinfo.New(hostinfo.Roots{Proc: proc, Sys: t.TempDir()}), o)
	t.Cleanup(s.Close)
	return s
}

// The first caller starts the sampler and waits for its first window; the
// window then slides over the kept readings, each one judged between the
// oldest and the newest reading.
//
// This test and the next four run in synctest bubbles: the sampler's
// ticks, pauses and idle stop pass on the fake clock, so the windows are
// exactly as long as configured and a loaded machine cannot stretch them.
func TestWindowSlidesOverKeptReadings(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		f.keepAdvancing(t, 10*time.Millisecond)
		s := newSampler(t, f.dir, &Options{Every: 30 * time.Millisecond, Readings: 3, FirstWindow: 50 * time.Millisecond})
		if s.Running() {
			t.Fatal("the sampler runs before anyone asked")
		}
		first, err := s.Window(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !first.Started {
			t.Error("the first window does not say the call waited for it")
		}
		if got := first.End.Sub(first.Start); got != 50*time.Millisecond {
			t.Errorf("first window %v, want FirstWindow", got)
		}
		var w Window
		deadline := time.Now().Add(10 * time.Second)
		for {
			if w, err = s.Window(context.Background()); err != nil {
				t.Fatal(err)
			}
			if w.Start.After(first.Start) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the window never slid past %v", first.Start)
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, got := range []Window{first, w} {
			if got.Snapshot.CPU.Utilization.Busy != 30 {
				t.Errorf("busy %v%%, want 30%% (window %v-%v)", got.Snapshot.CPU.Utilization.Busy, got.Start, got.End)
			}
			if got.Snapshot.CPU.RunQueue != 2 || got.Snapshot.CPU.Count != 2 {
				t.Errorf("run queue %v on %d CPUs, want 2 on 2", got.Snapshot.CPU.RunQueue, got.Snapshot.CPU.Count)
			}
			if got.Snapshot.IntervalMS != got.End.Sub(got.Start).Milliseconds() {
				t.Errorf("interval %d ms, window %v", got.Snapshot.IntervalMS, got.End.Sub(got.Start))
			}
		}
		if w.Started {
			t.Error("a window from kept readings says the call waited for it")
		}
	})
}

// Without a caller for IdleStop the goroutine stops and drops its readings;
// the next caller starts it again and waits for a fresh window.
func TestIdleSamplerStopsAndRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		f.keepAdvancing(t, 10*time.Millisecond)
		s := newSampler(t, f.dir, &Options{Every: 20 * time.Millisecond, FirstWindow: 20 * time.Millisecond, IdleStop: 100 * time.Millisecond})
		w1, err := s.Window(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(10 * time.Second)
		for s.Running() {
			if time.Now().After(deadline) {
				t.Fatal("the sampler still runs after 10 s without a caller")
			}
			time.Sleep(10 * time.Millisecond)
		}
		s.mu.Lock()
		kept := len(s.ring)
		s.mu.Unlock()
		if kept != 0 {
			t.Errorf("an idle sampler keeps %d readings", kept)
		}
		w2, err := s.Window(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if !w2.Started || !w2.Start.After(w1.End) {
			t.Errorf("after the pause: started %v, window %v-%v; first ended %v", w2.Started, w2.Start, w2.End, w1.End)
		}
	})
}

// Close stops the goroutine and waits for it; later calls fail.
func TestCloseStopsTheGoroutine(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		s := New(hostinfo.New(hostinfo.Roots{Proc: f.dir, Sys: t.TempDir()}), &Options{Every: 10 * time.Millisecond, FirstWindow: 10 * time.Millisecond})
		if _, err := s.Window(context.Background()); err != nil {
			t.Fatal(err)
		}
		s.Close()
		if s.Running() {
			t.Error("the sampler still runs after Close returned")
		}
		if _, err := s.Window(context.Background()); !errors.Is(err, ErrClosed) {
			t.Errorf("Window after Close: %v, want ErrClosed", err)
		}
		s.Close() // twice is harmless
	})
}

// A host whose /proc/stat cannot be read is an error, not a window of
// zeros.
func TestUnreadableCountersFail(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		s := newSampler(t, t.TempDir(), &Options{FirstWindow: 10 * time.Millisecond})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if w, err := s.Window(ctx); err == nil || errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("window %+v, err %v; want the read error", w, err)
		}
	})
}

// A caller whose context ends stops waiting for the first window.
func TestWindowHonoursContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeProc(t)
		s := newSampler(t, f.dir, &Options{FirstWindow: time.Hour})
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := s.Window(ctx); !errors.Is(err, context.Canceled) {
			t.Fatalf("err %v, want context.Canceled", err)
		}
	})
}

// The live host: a window of real counters with PSI, memory and file
// systems, as the scrape and sys_snapshot use it.
func TestWindowLive(t *testing.T) {
	s := New(hostinfo.New(hostinfo.Roots{}), nil)
	t.Cleanup(s.Close)
	w, err := s.Window(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	snap := w.Snapshot
	if snap.CPU.Count == 0 || snap.Memory.TotalBytes == 0 || snap.CPU.Utilization.Busy < 0 || snap.CPU.Utilization.Busy > 100 {
		t.Errorf("implausible window: %+v", snap.CPU)
	}
	if len(snap.Filesystems) == 0 {
		t.Error("no file system read on the first reading")
	}
	if _, err := os.Stat("/proc/pressure/cpu"); err == nil && snap.Pressure == nil {
		t.Error("the host has PSI but the window has none")
	}
}

// A slow reading stretches the pause so reading stays at 2% of the time.
func TestSlowReadingsStretchThePause(t *testing.T) {
	for _, tc := range []struct{ every, took, want time.Duration }{
		{2 * time.Second, 10 * time.Millisecond, 2 * time.Second},
		{2 * time.Second, 40 * time.Millisecond, 2 * time.Second},
		{2 * time.Second, 100 * time.Millisecond, 5 * time.Second},
		{2 * time.Second, 300 * time.Millisecond, 15 * time.Second},
	} {
		if got := nextPause(tc.every, tc.took); got != tc.want {
			t.Errorf("every %v, reading took %v: pause %v, want %v", tc.every, tc.took, got, tc.want)
		}
	}
}
