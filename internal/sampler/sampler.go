// Package sampler reads the host's counters in the background while someone
// asks for them, so that sys_snapshot and the /metrics scrape answer from a
// recent window of readings instead of sleeping through one of their own.
//
// One goroutine starts on the first Window call, reads the counters
// perf_use_check judges (CPU, PSI, memory, disks, network, cgroup limits)
// every Every, keeps the last Readings of them, reads file system
// capacity every FilesystemsEvery, and stops after IdleStop without a
// caller, dropping its readings. Close stops it for good.
package sampler

import (
	"cmp"
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Options tune the sampler; nil means all defaults.
type Options struct {
	// Every is the pause between readings; default 2 s. A reading that
	// takes long (a host with thousands of cgroups) stretches the pause,
	// so reading never takes more than 1/dutyDivisor (2%) of the time.
	Every time.Duration
	// Readings is how many readings are kept, 2 to 16; default 4: the
	// window runs from the oldest to the newest, about 6 s at the default.
	Readings int
	// FirstWindow is the pause between the first two readings, which the
	// caller that started the sampler waits for; default 100 ms.
	FirstWindow time.Duration
	// IdleStop stops the goroutine when no one asked for that long;
	// default 10 min, above any usual Prometheus scrape interval.
	IdleStop time.Duration
	// FilesystemsEvery is how often file system capacity (statfs of every
	// real mount) is read; default 30 s: it changes slowly.
	FilesystemsEvery time.Duration
}

// Defaults, and the bound on the time spent reading.
const (
	defaultEvery            = 2 * time.Second
	defaultReadings         = 4
	maxReadings             = 16
	defaultFirstWindow      = 100 * time.Millisecond
	defaultIdleStop         = 10 * time.Minute
	defaultFilesystemsEvery = 30 * time.Second
	// dutyDivisor bounds the reading's share of wall time: the pause
	// after a reading is at least this many times what it took.
	dutyDivisor = 50
)

// ErrClosed is returned by Window after Close.
var ErrClosed = errors.New("the sampler is closed")

// Sampler keeps a short ring of the host's counters. Its zero value is not
// usable; New builds one. Safe for concurrent use.
type Sampler struct {
	host *hostinfo.Host
	o    Options
	ctx  context.Context // ended by Close
	stop context.CancelFunc
	wg   sync.WaitGroup

	mu      sync.Mutex
	ring    []hostinfo.Counters // oldest first
	gauges  hostinfo.Gauges     // read with the newest reading
	fs      []hostinfo.FilesystemUse
	err     error // of the last attempt, when it failed
	lastUse time.Time
	running bool
	// changed is closed and replaced at every reading and when the
	// goroutine ends, waking the callers waiting for a first window.
	changed chan struct{}
}

// New builds a sampler reading host; nothing runs until the first Window.
func New(host *hostinfo.Host, opts *Options) *Sampler {
	o := Options{}
	if opts != nil {
		o = *opts
	}
	o.Every = cmp.Or(o.Every, defaultEvery)
	o.Readings = min(max(cmp.Or(o.Readings, defaultReadings), 2), maxReadings)
	o.FirstWindow = cmp.Or(o.FirstWindow, defaultFirstWindow)
	o.IdleStop = cmp.Or(o.IdleStop, defaultIdleStop)
	o.FilesystemsEvery = cmp.Or(o.FilesystemsEvery, defaultFilesystemsEvery)
	ctx, stop := context.WithCancel(context.Background())
	return &Sampler{host: host, o: o, ctx: ctx, stop: stop, changed: make(chan struct{})}
}

// Close stops the goroutine and waits for it to end. Window fails after it.
func (s *Sampler) Close() {
	// Under mu, so that no Window starts a goroutine Wait does not count.
	s.mu.Lock()
	s.stop()
	s.mu.Unlock()
	s.wg.Wait()
}

// Running reports whether the goroutine is reading, for tests.
func (s *Sampler) Running() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running
}

// Window is the host measured between the oldest and the newest kept
// readings, as perf_snapshot measures an interval.
type Window struct {
	Start, End time.Time
	Snapshot   hostinfo.PerfSnapshot
	// Started is true when this call found the sampler idle, started it
	// and waited FirstWindow for the first two readings.
	Started bool
}

// Window answers from the kept readings, starting the sampler and waiting
// for its first window when it is idle. It fails when ctx ends first, when
// the host's counters cannot be read, or after Close.
func (s *Sampler) Window(ctx context.Context) (Window, error) {
	s.mu.Lock()
	s.lastUse = time.Now()
	started := false
	for len(s.ring) < 2 {
		if s.ctx.Err() != nil {
			s.mu.Unlock()
			return Window{}, ErrClosed
		}
		if s.err != nil && started {
			err := s.err
			s.mu.Unlock()
			return Window{}, err
		}
		if !s.running {
			s.running, s.err = true, nil
			s.wg.Add(1)
			go s.run()
		}
		started = true
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return Window{}, ctx.Err()
		}
		s.mu.Lock()
	}
	before, after := s.ring[0], s.ring[len(s.ring)-1]
	rq := make([]hostinfo.RunQueueSample, 0, len(s.ring)-1)
	for _, c := range s.ring[1:] {
		rq = append(rq, c.RunQueue())
	}
	g := s.gauges
	g.Filesystems = s.fs
	s.mu.Unlock()
	return Window{
		Start: before.Time, End: after.Time, Started: started,
		Snapshot: hostinfo.BuildPerfSnapshot(hostinfo.SnapshotInput{Before: before, After: after, Gauges: g, RunQueue: rq}),
	}, nil
}

// run reads until the sampler is idle for IdleStop or closed.
func (s *Sampler) run() {
	defer s.wg.Done()
	var fsAt time.Time
	// The first pause is the caller's wait, never stretched.
	pause, first := s.o.FirstWindow, true
	for {
		began := time.Now()
		if began.Sub(fsAt) >= s.o.FilesystemsEvery && s.read(true) {
			fsAt = began
		} else {
			s.read(false)
		}
		took := time.Since(began)
		if s.idle() {
			return
		}
		if !first {
			pause = nextPause(s.o.Every, took)
		}
		first = false
		t := time.NewTimer(pause)
		select {
		case <-s.ctx.Done():
			t.Stop()
			s.end()
			return
		case <-t.C:
		}
	}
}

// nextPause is the pause after a reading that took took: every, or longer
// when reading took more than 1/dutyDivisor of that.
func nextPause(every, took time.Duration) time.Duration {
	return max(every, took*dutyDivisor)
}

// read takes one reading into the ring, with file system capacity when
// withFS; it reports whether the reading succeeded.
func (s *Sampler) read(withFS bool) bool {
	c, _, err := s.host.ReadCounters(&hostinfo.CounterOptions{Limits: true})
	var g hostinfo.Gauges
	if err == nil {
		g, _, err = s.host.ReadGauges(nil)
	}
	var fs []hostinfo.FilesystemUse
	if err == nil && withFS {
		// +Inf: capacity only, never the scan for deleted files held open,
		// which walks every process's descriptors.
		fs, _ = s.host.Filesystems(s.ctx, math.Inf(1))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.broadcast()
	if s.err = err; err != nil {
		return false
	}
	if len(s.ring) == s.o.Readings {
		s.ring = append(s.ring[:0], s.ring[1:]...)
	}
	s.ring = append(s.ring, c)
	s.gauges = g
	if withFS {
		s.fs = fs
	}
	return true
}

// idle ends the goroutine's run when no one asked for IdleStop, dropping
// the readings so an idle sampler holds no memory and a later caller
// never gets a window from before the pause.
func (s *Sampler) idle() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if time.Since(s.lastUse) < s.o.IdleStop {
		return false
	}
	s.clear()
	return true
}

// end is the goroutine's exit on Close.
func (s *Sampler) end() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.clear()
}

// clear drops the readings and marks the goroutine stopped; s.mu is held.
func (s *Sampler) clear() {
	s.ring, s.gauges, s.fs, s.running = nil, hostinfo.Gauges{}, nil, false
	s.broadcast()
}

// broadcast wakes the callers waiting for a reading; s.mu is held.
func (s *Sampler) broadcast() {
	close(s.changed)
	s.changed = make(chan struct{})
}
