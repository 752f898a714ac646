package repl

import (
	"crypto/rand"
	"encoding/hex"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Sessions are kept in memory: they belong to this server process and die
// with it, so persisting them would only describe processes that are gone.
//
// Limits are counted per MCP client session (tool.Call.Session). Over
// stdio that is the one client; over stateless HTTP every request is its
// own client session, so there only the total limit bites, and any caller
// holding a proc_id can use it: proc_ids are unguessable, and a caller is
// whoever holds the server's token anyway.

// sweepEvery is how often idle, over-age and expired sessions are looked for.
const sweepEvery = time.Second

// sweepGrace is how long a session stopped by the server gets after SIGTERM.
const sweepGrace = 2 * time.Second

type registry struct {
	conf config.ReplConf

	mu       sync.Mutex
	byID     map[string]*session
	pending  map[string]int // starts in progress, by owner
	sweeping bool
}

func newRegistry(conf config.ReplConf) *registry {
	return &registry{conf: conf, byID: map[string]*session{}, pending: map[string]int{}}
}

// reserve claims a slot for a session owner is about to start, so that
// concurrent starts cannot overshoot the limits. The caller must call
// release once the session is added or failed to start.
func (r *registry) reserve(owner string) (release func(), err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	total, mine := 0, r.pending[owner]
	for _, n := range r.pending {
		total += n
	}
	for _, s := range r.byID {
		if s.running() {
			total++
			if s.owner == owner {
				mine++
			}
		}
	}
	const next = "Stop a session you no longer need with proc_stop (proc_sessions lists them), then call again."
	if mine >= r.conf.MaxSessionsPerClient {
		return nil, tool.Errorf(tool.LimitReached, "this client already has %d running sessions, the limit (repl.max_sessions_per_client)", mine).WithSuggestion(next)
	}
	if total >= r.conf.MaxSessions {
		return nil, tool.Errorf(tool.LimitReached, "the server already has %d running sessions, the limit (repl.max_sessions)", total).WithSuggestion(next)
	}
	r.pending[owner]++
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.pending[owner]--; r.pending[owner] <= 0 {
			delete(r.pending, owner)
		}
	}, nil
}

// add registers a started session under a new proc_id.
func (r *registry) add(s *session) {
	var b [6]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	s.id = "r_" + hex.EncodeToString(b[:])
	r.mu.Lock()
	defer r.mu.Unlock()
	r.byID[s.id] = s
	if !r.sweeping {
		r.sweeping = true
		go r.sweepLoop()
	}
}

// get finds a session, running or finished and still retained.
func (r *registry) get(id string) (*session, error) {
	r.mu.Lock()
	s, ok := r.byID[id]
	r.mu.Unlock()
	if !ok {
		return nil, tool.Errorf(tool.ProcessNotFound, "no session %q: it never existed, or it finished more than repl.retention (%s) ago",
			tool.Clip(id), r.conf.Retention.Duration).WithSuggestion("List sessions with proc_sessions, or start one with proc_start.")
	}
	return s, nil
}

// list returns every session, oldest first.
func (r *registry) list() []*session {
	r.mu.Lock()
	out := make([]*session, 0, len(r.byID))
	for _, s := range r.byID {
		out = append(out, s)
	}
	r.mu.Unlock()
	slices.SortFunc(out, func(a, b *session) int { return a.started.Compare(b.started) })
	return out
}

// sweepLoop enforces the idle timeout, the lifetime limit and the
// retention of finished sessions. It runs only while there are sessions.
func (r *registry) sweepLoop() {
	t := time.NewTicker(sweepEvery)
	defer t.Stop()
	for range t.C {
		if !r.sweep(time.Now()) {
			return
		}
	}
}

// sweep does one pass; false means no session is left and the loop ends.
func (r *registry) sweep(now time.Time) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	for id, s := range r.byID {
		s.mu.Lock()
		reason := ""
		switch {
		case s.exited && now.Sub(s.ended) > r.conf.Retention.Duration:
			delete(r.byID, id)
		case s.exited || s.stopReason != "":
		case now.Sub(s.lastActivity) > r.conf.IdleTimeout.Duration:
			reason = "idle for longer than repl.idle_timeout (" + r.conf.IdleTimeout.Duration.String() + ")"
		case now.Sub(s.started) > r.conf.MaxLifetime.Duration:
			reason = "older than repl.max_lifetime (" + r.conf.MaxLifetime.Duration.String() + ")"
		}
		if reason != "" {
			s.stopReason = reason
			go s.stop(syscall.SIGTERM, sweepGrace, reason)
		}
		s.mu.Unlock()
	}
	if len(r.byID) == 0 {
		r.sweeping = false
		return false
	}
	return true
}

// stopAll kills every running session, for server shutdown.
func (r *registry) stopAll() {
	var wg sync.WaitGroup
	for _, s := range r.list() {
		wg.Go(func() { s.stop(syscall.SIGKILL, 0, "server shutdown") })
	}
	wg.Wait()
}
