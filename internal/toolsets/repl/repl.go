// Package repl is the repl toolset of spec 004 section 3.5: interactive
// sessions (python3, node, ...) under a pseudo-terminal that an agent
// starts, types into, reads and stops. Only allowlisted programs run, in a
// directory inside the roots, with a scrubbed environment; each session
// is bounded in output, idle time and lifetime, and dies with the server.
package repl

import (
	"fmt"
	"os"
	"slices"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// Deps are what the repl toolset is built from.
type Deps struct {
	Config *config.Config // [repl] and exec.extra_path
	Roots  *fsroot.Set    // where sessions may start, read and write
}

// Set is the repl toolset. Its sessions live as long as the server.
type Set struct {
	conf     config.ReplConf
	roots    *fsroot.Set
	exec     *execx.Runner // resolves conf.Programs; never runs anything itself
	user     *sessinit.User
	stateDir string // hidden from sessions under their private tmpfs, which holds their HOME
	abi      int    // the kernel's Landlock ABI; tests lower it to take the paths of older kernels
	setupErr error  // why sessions cannot start here, if they cannot
	reg      *registry
	spawn    *execx.Spawner // forks every session; see newSpawner
}

// New builds the repl toolset. Sessions start only in a server hardened at
// start-up (execx.Harden): building the toolset changes nothing in the
// process, so that listing the tools does not either.
func New(d *Deps) *Set {
	s := &Set{
		conf:     d.Config.Repl,
		roots:    d.Roots,
		stateDir: d.Config.StateDir,
		abi:      landlock.ABI(),
		reg:      newRegistry(d.Config.Repl),
		spawn:    newSpawner(),
	}
	if st, err := os.Stat(s.stateDir); err != nil || !st.IsDir() {
		s.setupErr = fmt.Errorf("the state directory %q, where sessions get their HOME, is not a directory", s.stateDir)
	}
	// The programs are resolved here, once: a later change to the
	// filesystem cannot redirect proc_start to another binary.
	s.exec, s.setupErr = execx.New(&execx.Options{Allowed: s.conf.Programs, ExtraPath: d.Config.Exec.ExtraPath})
	if u, err := sessionUser(s.conf.User); err != nil {
		s.setupErr = err
	} else {
		s.user = u
	}
	if err := execx.Hardened(); err != nil {
		s.setupErr = err
	}
	return s
}

// Toolset lists the repl tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "repl",
		Description:    "Interactive sessions of allowlisted programs (python3, node, ...) under a pseudo-terminal: start, send input and keys, read output, stop.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.start(), s.send(), s.read(), s.stopTool(), s.sessions()},
		Close:          s.Close,
	}
}

// Close kills every session. The server calls it on shutdown; without it
// the kernel still ends them when the process exits (see launch).
func (s *Set) Close() { s.reg.stopAll() }

// available lists the allowlisted programs installed on this host.
func (s *Set) available() []string {
	var out []string
	if s.exec == nil {
		return out
	}
	for _, p := range s.conf.Programs {
		if s.exec.Available(p) && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}
