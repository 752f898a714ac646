// Package jobs runs bounded background work for tools whose answers come
// later (bpftrace programs): each job has an id, a status, a capped buffer
// of output lines, a deadline and a stop; finished jobs stay readable for a
// retention time. Jobs end with the manager, so nothing outlives the server.
package jobs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"sync"
	"time"
)

// Status of a job.
const (
	Running   = "running"
	Completed = "completed"
	Failed    = "failed"
	Timeout   = "timeout"
	Stopped   = "stopped"
)

// Errors of the manager.
var (
	ErrLimit    = errors.New("too many jobs running")
	ErrNotFound = errors.New("no such job")
)

// Limits bound a manager.
type Limits struct {
	MaxRunning int           // jobs running at once
	MaxLines   int           // lines kept per job
	Retention  time.Duration // how long a finished job stays
}

// Manager owns the jobs.
type Manager struct {
	lim  Limits
	ctx  context.Context
	stop context.CancelFunc

	mu   sync.Mutex
	jobs map[string]*Job
	now  func() time.Time
}

// New makes a manager; Close ends every job it started.
func New(lim Limits) *Manager {
	ctx, stop := context.WithCancel(context.Background())
	return &Manager{lim: lim, ctx: ctx, stop: stop, jobs: map[string]*Job{}, now: time.Now}
}

// Job is one piece of background work.
type Job struct {
	ID string

	mu       sync.Mutex
	status   string
	lines    []string
	dropped  int
	exitCode *int
	errs     []string
	started  time.Time
	ended    time.Time
	stopped  bool
	cancel   context.CancelFunc
	done     chan struct{}
	maxLines int
}

// Snapshot is a job's state at one moment, with a page of its lines.
type Snapshot struct {
	ID         string
	Status     string
	Lines      []string // the page asked for
	LinesTotal int      // kept lines
	Dropped    int      // lines beyond the cap, not kept
	ExitCode   *int
	Errors     []string
	Started    time.Time
	Ended      time.Time // zero while running
}

// Start runs fn in the background with a context that ends at timeout, on
// Stop, or when the manager closes. fn's error decides the final status:
// nil is completed; the deadline is timeout; Stop is stopped; anything
// else failed. It returns ErrLimit when MaxRunning jobs run already.
func (m *Manager) Start(timeout time.Duration, fn func(ctx context.Context, j *Job) error) (*Job, error) {
	m.mu.Lock()
	m.expireLocked()
	running := 0
	for _, j := range m.jobs {
		if j.Status() == Running {
			running++
		}
	}
	if running >= m.lim.MaxRunning {
		m.mu.Unlock()
		return nil, ErrLimit
	}
	ctx, cancel := context.WithTimeout(m.ctx, timeout)
	j := &Job{ID: newID(), status: Running, started: m.now(), cancel: cancel, done: make(chan struct{}), maxLines: m.lim.MaxLines}
	m.jobs[j.ID] = j
	m.mu.Unlock()
	go func() {
		defer cancel()
		err := fn(ctx, j)
		j.finish(ctx, err, m.now())
	}()
	return j, nil
}

func (j *Job) finish(ctx context.Context, err error, now time.Time) {
	j.mu.Lock()
	defer j.mu.Unlock()
	switch {
	case j.stopped:
		j.status = Stopped
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		j.status = Timeout
	case err != nil:
		j.status = Failed
		j.errs = append(j.errs, err.Error())
	default:
		j.status = Completed
	}
	j.ended = now
	close(j.done)
}

// AddLine keeps a line of output, or counts it as dropped past the cap.
func (j *Job) AddLine(line string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.lines) >= j.maxLines {
		j.dropped++
		return
	}
	j.lines = append(j.lines, line)
}

// AddError records an error message of the job (a program's stderr).
func (j *Job) AddError(msg string) {
	j.mu.Lock()
	j.errs = append(j.errs, msg)
	j.mu.Unlock()
}

// SetExitCode records the program's exit code.
func (j *Job) SetExitCode(code int) {
	j.mu.Lock()
	j.exitCode = &code
	j.mu.Unlock()
}

// Status is the job's current status.
func (j *Job) Status() string {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.status
}

// Done is closed when the job has finished.
func (j *Job) Done() <-chan struct{} { return j.done }

// Get returns a job's state with lines [offset, offset+limit).
func (m *Manager) Get(id string, offset, limit int) (Snapshot, error) {
	m.mu.Lock()
	m.expireLocked()
	j, ok := m.jobs[id]
	m.mu.Unlock()
	if !ok {
		return Snapshot{}, ErrNotFound
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	s := Snapshot{ID: j.ID, Status: j.status, LinesTotal: len(j.lines), Dropped: j.dropped, ExitCode: j.exitCode,
		Errors: append([]string{}, j.errs...), Started: j.started, Ended: j.ended, Lines: []string{}}
	if offset < len(j.lines) {
		s.Lines = append(s.Lines, j.lines[offset:min(len(j.lines), offset+limit)]...)
	}
	return s, nil
}

// Stop ends a running job (its status becomes stopped) and waits for it.
func (m *Manager) Stop(id string) error {
	m.mu.Lock()
	j, ok := m.jobs[id]
	m.mu.Unlock()
	if !ok {
		return ErrNotFound
	}
	j.mu.Lock()
	if j.status == Running {
		j.stopped = true
	}
	j.mu.Unlock()
	j.cancel()
	<-j.done
	return nil
}

// Close stops every job and waits for them.
func (m *Manager) Close() {
	m.stop()
	m.mu.Lock()
	jobs := make([]*Job, 0, len(m.jobs))
	for _, j := range m.jobs {
		jobs = append(jobs, j)
	}
	m.mu.Unlock()
	for _, j := range jobs {
		<-j.done
	}
}

// expireLocked forgets jobs finished longer than Retention ago.
func (m *Manager) expireLocked() {
	now := m.now()
	for id, j := range m.jobs {
		j.mu.Lock()
		old := j.status != Running && now.Sub(j.ended) > m.lim.Retention
		j.mu.Unlock()
		if old {
			delete(m.jobs, id)
		}
	}
}

func newID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "X_" + hex.EncodeToString(b)
}
