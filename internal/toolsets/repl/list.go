package repl

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// sessionsIn is the input of proc_sessions: nothing.
type sessionsIn struct{}

// sessionInfo describes one session.
type sessionInfo struct {
	ProcID      string   `json:"proc_id" jsonschema:"session id"`
	PID         int      `json:"pid" jsonschema:"process id of the program"`
	Command     []string `json:"command" jsonschema:"its argv"`
	Cwd         string   `json:"cwd" jsonschema:"its working directory"`
	PTY         bool     `json:"pty" jsonschema:"whether it runs under a pseudo-terminal"`
	Mine        bool     `json:"mine" jsonschema:"started by this client session"`
	StartedAt   string   `json:"started_at" jsonschema:"start time, RFC 3339"`
	IdleSeconds int64    `json:"idle_seconds" jsonschema:"seconds since the last start, send or read"`
	TotalBytes  int64    `json:"total_bytes" jsonschema:"output bytes produced so far"`
	UnreadBytes int64    `json:"unread_bytes" jsonschema:"output bytes past where the last read ended"`
	status
}

// sessionsOut is the answer of proc_sessions.
type sessionsOut struct {
	Sessions             []sessionInfo       `json:"sessions" jsonschema:"running sessions and finished ones not yet expired, oldest first"`
	Running              int                 `json:"running" jsonschema:"sessions running on this server"`
	MaxSessions          int                 `json:"max_sessions" jsonschema:"running sessions allowed on this server"`
	MaxSessionsPerClient int                 `json:"max_sessions_per_client" jsonschema:"running sessions allowed per client session"`
	Programs             []string            `json:"programs" jsonschema:"allowlisted programs installed here, which proc_start accepts"`
	Args                 map[string][]string `json:"args" jsonschema:"per program, the only arguments proc_start lets follow it; <path> stands for a path inside the roots"`
}

func (s *Set) sessions() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_sessions",
		Kind:        tool.ReadOnly,
		Title:       "List interactive sessions",
		Description: "List sessions with state and unread output, and the programs proc_start accepts.",
		Timeout:     5 * time.Second,
	}, s.handleSessions)
}

func (s *Set) handleSessions(ctx context.Context, call *tool.Call, in sessionsIn) (sessionsOut, error) {
	out := sessionsOut{
		Sessions:             []sessionInfo{},
		MaxSessions:          s.conf.MaxSessions,
		MaxSessionsPerClient: s.conf.MaxSessionsPerClient,
		Programs:             s.available(),
	}
	if out.Programs == nil {
		out.Programs = []string{}
	}
	out.Args = make(map[string][]string, len(out.Programs))
	for _, p := range out.Programs {
		out.Args[p] = append([]string{}, s.conf.Args[p]...)
	}
	now := time.Now()
	for _, sess := range s.reg.list() {
		sess.mu.Lock()
		info := sessionInfo{
			ProcID:      sess.id,
			PID:         sess.programPID,
			Command:     sess.argv,
			Cwd:         sess.cwd,
			PTY:         sess.pty,
			Mine:        sess.owner == call.Session,
			StartedAt:   sess.started.UTC().Format(time.RFC3339),
			IdleSeconds: int64(now.Sub(sess.lastActivity).Seconds()),
			TotalBytes:  sess.buf.end(),
			UnreadBytes: sess.buf.end() - sess.cursor,
			status:      sess.statusLocked(),
		}
		sess.mu.Unlock()
		if info.State == stateRunning {
			out.Running++
		}
		out.Sessions = append(out.Sessions, info)
	}
	return out, nil
}
