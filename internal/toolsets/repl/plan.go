package repl

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// What [confirm] conditions on the session tools test. The previews come
// from the checks each handler makes before it acts: a dry run answers
// with one, and a real call passes the confirmation gate with it.
var (
	startFacts = []tool.Fact{
		{Name: "program", Kind: tool.FactString, Doc: "the program it starts, as [repl] programs names it (python3, node...)"},
		{Name: "network", Kind: tool.FactBool, Doc: "the session may bind and connect TCP sockets"},
		{Name: "confined", Kind: tool.FactBool, Doc: "the session runs under Landlock"},
	}
	sendFacts = []tool.Fact{
		{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of text it types (Enter included)"},
		{Name: "keys", Kind: tool.FactNumber, Doc: "keys it presses after the text"},
	}
	stopFacts = []tool.Fact{
		{Name: "signal", Kind: tool.FactString, Doc: "the signal it sends first: TERM, INT, HUP or KILL"},
		{Name: "running", Kind: tool.FactBool, Doc: "the session's program is still running"},
	}
)

// startPreview is what starting a session would do.
func startPreview(name string, argv []string, dir string, env map[string]string, pty bool, conf confinement) tool.Preview {
	how := "under Landlock"
	if !conf.landlock {
		how = "unconfined (no Landlock)"
	}
	net := "no network"
	if conf.tcp {
		net = "TCP allowed"
	}
	summary := fmt.Sprintf("Start %q in %q as a session, %s, %s", tool.Clip(strings.Join(argv, " ")), tool.Clip(dir), how, net)
	keys := slices.Sorted(maps.Keys(env))
	if len(keys) > 0 {
		summary += ", with " + tool.Clip(strings.Join(keys, ", ")) + " set"
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"program": name, "network": conf.tcp, "confined": conf.landlock},
		State:   tool.StateOf(strings.Join(argv, "\x00"), dir, fmt.Sprint(env), pty, conf.landlock, conf.tcp),
	}
}

// describe names a session for a person: "python3 (session p_x, pid 42,
// running 3 min)".
func (s *session) describe() string {
	s.mu.Lock()
	state := "running " + figures.Span(time.Since(s.started))
	if s.exited {
		state = "exited"
	}
	s.mu.Unlock()
	return fmt.Sprintf("%s (session %s, pid %d, %s)", tool.Clip(strings.Join(s.argv, " ")), s.id, s.programPID, state)
}

// sendPreview is what typing steps into s would do.
func sendPreview(s *session, in sendIn, steps []string) tool.Preview {
	n := 0
	for _, st := range steps {
		n += len(st)
	}
	summary := fmt.Sprintf("Type %s into %s", figures.IEC(uint64(int64(len(steps[0])))), s.describe())
	if in.Input != "" {
		summary += fmt.Sprintf(": %q", tool.Clip(in.Input))
	}
	if len(in.Keys) > 0 {
		summary += ", then press " + tool.Clip(strings.Join(in.Keys, " "))
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"bytes": len(steps[0]), "keys": len(in.Keys)},
		State:   tool.StateOf(s.id, s.programPID, s.running(), strings.Join(steps, "\x00")),
	}
}

// stopPreview is what stopping s with sig would do.
func stopPreview(s *session, name string, sig syscall.Signal, grace time.Duration) tool.Preview {
	running := s.running()
	summary := fmt.Sprintf("Stop %s: it has already exited, nothing to signal", s.describe())
	if running {
		summary = fmt.Sprintf("Stop %s and every process it started: SIG%s", s.describe(), name)
		if sig != syscall.SIGKILL {
			summary += fmt.Sprintf(", then SIGKILL after %d ms", grace.Milliseconds())
		}
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"signal": name, "running": running},
		State:   tool.StateOf(s.id, s.programPID, running, name),
	}
}
