// Package proc is the proc toolset of spec 002: list the processes of the
// host from procfs, show their tree, and signal one of them behind the
// guardrails of DESIGN.md section 4 (validated pid, protected processes,
// pidfd so a reused pid is never hit).
package proc

import (
	"os"
	"sync"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the proc tools read and decide with.
type Deps struct {
	// Host is where processes are read from; nil reads the live host.
	Host *hostinfo.Host
	// Config holds the guardrails the operator chose.
	Config config.ProcessConf
	// Self is the pid of the server, protected from proc_kill with its
	// ancestors; 0 means this process.
	Self int
}

// Set is the proc toolset.
type Set struct {
	deps    Deps
	reader  *procs.Reader
	openErr error // procfs could not be opened: every tool reports it
	// ownNS says the procfs read numbers processes as the server's own pid
	// namespace does, which signalling by pidfd needs.
	ownNS bool
	users *procs.Users
	uid   int // the server's effective uid: "own" processes are its

	cpuMu sync.Mutex
	prev  *cpuSample // the last sample, for cpu_percent since the previous call
}

// New builds the proc toolset. A host without procfs still gets the tools;
// they answer CAPABILITY_MISSING.
func New(d *Deps) *Set {
	s := &Set{deps: *d, users: procs.NewUsers(), uid: os.Geteuid()}
	if s.deps.Self == 0 {
		s.deps.Self = os.Getpid()
	}
	host := d.Host
	if host == nil {
		host = hostinfo.New(hostinfo.Roots{})
	}
	s.reader, s.openErr = host.Processes(wholeCommand)
	s.ownNS = host.OwnPIDNamespace()
	return s
}

// Toolset lists the proc tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "proc",
		Description:    "Processes: list them with CPU and memory use, show their tree, and signal one behind guardrails.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.list(), s.tree(), s.kill()},
	}
}

// ready reports a missing procfs as the capability it is.
func (s *Set) ready() error {
	if s.openErr != nil {
		return tool.Wrap(tool.CapabilityMissing, s.openErr, "procfs is not readable here: %v", s.openErr).
			WithSuggestion("Mount procfs at /proc (mount -t proc proc /proc); process tools need it.")
	}
	return nil
}

// signallable refuses proc_kill where the procfs read is not the server's
// own pid namespace's ([host] proc names the host's from a container with
// a pid namespace of its own): a pid validated there may name another
// process in the namespace pidfd_open looks in.
func (s *Set) signallable() error {
	if s.ownNS {
		return nil
	}
	return tool.Errorf(tool.CapabilityMissing, "proc_kill is off: the procfs hostmcp reads ([host] proc) is not of its own pid namespace, so a pid there may name another process than the one a signal would reach").
		WithSuggestion("Run hostmcp in the host's pid namespace (--pid=host, hostPID: true) to signal host processes; proc_list and proc_tree still work.")
}

// visible says whether the agent may see p's details under list_other_users.
func (s *Set) visible(p *procs.Process) bool {
	return s.deps.Config.ListOtherUsers || p.EUID == s.uid || p.RUID == s.uid
}
