package doctor

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
)

// Judge turns the facts into the report. It is pure: tests give it facts
// of hosts and configurations this machine is not.
func Judge(f *Facts) *Report {
	r := &Report{}
	if f.ConfigErr != nil {
		r.Sections = append(r.Sections, Section{Title: "Configuration", Checks: []Check{{
			Status: Fail, What: "the configuration does not load", Detail: indentLines(f.ConfigErr.Error()),
			Fix: "correct each setting named above; hostmcp.example.toml lists every setting with its default and limits",
		}}})
		return r
	}
	r.Sections = append(r.Sections,
		configSection(f), rootsSection(f), toolsetsSection(f), programsSection(f),
		hostSection(f), stateSection(f), transportSection(f), loadSection(f.Config))
	return r
}

func configSection(f *Facts) Section {
	c := f.Config
	file := "none: defaults, environment and flags"
	if f.ConfigFile != "" {
		file = f.ConfigFile
	}
	level := c.Log.Level
	if level == "" {
		level = strings.ToLower(c.SlogLevel().String()) + " (by transport)"
	}
	return Section{Title: "Configuration", Checks: []Check{
		{Status: OK, What: "file", Detail: file},
		{Status: Info, What: "client_roots", Detail: clientRootsDetail(c.ClientRoots)},
		{Status: Info, What: "log level", Detail: level},
	}}
}

func clientRootsDetail(mode string) string {
	if mode == config.ClientRootsNarrow {
		return `"narrow": a stdio client's MCP roots narrow the roots below, never widen them`
	}
	return `"ignore": clients' MCP roots are ignored; the roots below are served as they are`
}

func rootsSection(f *Facts) Section {
	sec := Section{Title: "Roots (the only places file tools reach)"}
	for _, rf := range f.Roots {
		mode := "read-write"
		if rf.Root.ReadOnly {
			mode = "read-only"
		}
		ck := Check{Status: OK, What: rf.Root.Path, Detail: mode}
		switch {
		case rf.Err != nil:
			ck.Status, ck.Detail = Fail, fmt.Sprintf("%s, but %v", mode, rf.Err)
			ck.Fix = "make it an existing directory this user can open, or remove it from the roots"
		case !rf.Root.ReadOnly && rf.ReadOnlyMount:
			ck.Status, ck.Detail = Fail, "read-write in the configuration, but its file system is mounted read-only here"
			ck.Fix = fmt.Sprintf("configure it read-only (--root %s:ro, read_only = true), or make it writable (under systemd: ReadWritePaths=%s in a drop-in, systemctl edit hostmcp)", rf.Root.Path, rf.Root.Path)
		case !rf.Root.ReadOnly && !rf.Writable:
			ck.Status, ck.Detail = Fail, "read-write in the configuration, but this user cannot write in it"
			ck.Fix = fmt.Sprintf("configure it read-only (--root %s:ro), or give this user write access to it", rf.Root.Path)
		}
		sec.Checks = append(sec.Checks, ck)
	}
	for _, w := range f.RootWarnings {
		sec.Checks = append(sec.Checks, Check{Status: Warn, What: "roots", Detail: w,
			Fix: "check that this is meant; narrow the root if it is not"})
	}
	return sec
}

func toolsetsSection(f *Facts) Section {
	sec := Section{Title: "Toolsets and tools served"}
	if f.OpenErr != nil {
		sec.Checks = append(sec.Checks, Check{Status: Fail, What: "the server cannot be built", Detail: f.OpenErr.Error(),
			Fix: "see the message; serve would stop with it"})
		return sec
	}
	if f.Config.Toolsets.ReadOnly {
		sec.Checks = append(sec.Checks, Check{Status: Info, What: "read-only", Detail: "only tools that change nothing are served"})
	}
	n := 0
	for _, ts := range f.Toolsets {
		n += len(ts.Tools)
		sec.Checks = append(sec.Checks, Check{Status: OK, What: ts.Name, Detail: strings.Join(ts.Tools, ", ")})
	}
	sec.Title = fmt.Sprintf("Toolsets and tools served (%d tools)", n)
	return sec
}

// need is what a missing program costs: the toolset that runs it, the
// Debian package that has it, and what its tools do without it.
type need struct{ toolset, pkg, without string }

// programNeed says what each allowlisted program is for; zero for one
// nothing served depends on.
func programNeed(name string) need {
	switch name {
	case "perf":
		return need{"profile", "linux-perf", "perf_cpu_profile, perf_offcpu_profile and perf_sched_latency answer CAPABILITY_MISSING"}
	case "bpftrace":
		return need{"bpftrace", "bpftrace", "the bpftrace tools answer CAPABILITY_MISSING"}
	case "rg":
		return need{"search", "ripgrep", "search_content uses its native walker (same results, slower)"}
	case "journalctl":
		return need{"system", "systemd", "sys_logs reads log files or the kernel log instead"}
	case "git":
		return need{"onboarding", "git", "explain_repo cannot read history"}
	}
	return need{}
}

func programsSection(f *Facts) Section {
	sec := Section{Title: "Programs (allowlisted, resolved from a fixed PATH)"}
	for _, p := range f.Programs {
		if p.Path != "" {
			sec.Checks = append(sec.Checks, Check{Status: OK, What: p.Name, Detail: p.Path})
			continue
		}
		need := programNeed(p.Name)
		ck := Check{Status: Info, What: p.Name, Detail: "not found"}
		if f.served(need.toolset) && need.pkg != "" {
			ck.Status, ck.Detail = Warn, "not found: "+need.without
			ck.Fix = "apt-get install " + need.pkg + " (or name its directory in [exec] extra_path)"
		}
		sec.Checks = append(sec.Checks, ck)
	}
	return sec
}

// served reports whether a toolset is served.
func (f *Facts) served(name string) bool {
	for _, ts := range f.Toolsets {
		if ts.Name == name {
			return true
		}
	}
	return false
}

func stateSection(f *Facts) Section {
	s := f.State
	ck := Check{Status: OK, What: s.Path, Detail: fmt.Sprintf("mode %04o, owner uid %d", s.Mode, s.UID)}
	switch {
	case s.Err != nil:
		ck.Status, ck.Detail = Fail, s.Err.Error()
		ck.Fix = "give this user a directory it owns (--state-dir, state_dir); under systemd StateDirectory=hostmcp makes /var/lib/hostmcp"
	case s.Mode&0o077 != 0:
		ck.Status, ck.Detail = Warn, fmt.Sprintf("mode %04o: other users can reach the state database, handles and artifacts", s.Mode)
		ck.Fix = "chmod 700 " + s.Path
	}
	return Section{Title: "State directory", Checks: []Check{ck}}
}

func transportSection(f *Facts) Section {
	c := f.Config
	sec := Section{Title: "Transport"}
	if c.HTTP.Addr == "" {
		sec.Checks = append(sec.Checks, Check{Status: Info, What: "stdio", Detail: "serve reads MCP on stdin (no --http, http.addr or HOSTMCP_HTTP_ADDR)"})
		if f.Token.Err != nil {
			sec.Checks = append(sec.Checks, Check{Status: Fail, What: "token", Detail: f.Token.Err.Error(), Fix: "see the message"})
		}
		return sec
	}
	sec.Checks = append(sec.Checks, Check{Status: Info, What: "HTTP", Detail: fmt.Sprintf("http://%s/mcp, /healthz, /metrics (behind the token)", c.HTTP.Addr)})
	switch {
	case f.Token.Err != nil:
		sec.Checks = append(sec.Checks, Check{Status: Fail, What: "token", Detail: f.Token.Err.Error(),
			Fix: "set one token: HOSTMCP_TOKEN or a file of at least 16 characters only its owner can read (--token-file)"})
	case f.Token.AddrErr != nil:
		sec.Checks = append(sec.Checks, Check{Status: Fail, What: "bind", Detail: f.Token.AddrErr.Error(),
			Fix: "give a token (--token-file FILE or HOSTMCP_TOKEN), or bind 127.0.0.1"})
	case f.Token.Source == "":
		sec.Checks = append(sec.Checks, Check{Status: Warn, What: "token", Detail: "none: every local user and process can call every tool",
			Fix: "umask 077; openssl rand -hex 32 > /etc/hostmcp/token; serve --token-file /etc/hostmcp/token"})
	default:
		sec.Checks = append(sec.Checks, Check{Status: OK, What: "token", Detail: "from " + f.Token.Source})
	}
	return sec
}

func loadSection(c *config.Config) Section {
	l := c.Load
	return Section{Title: "Load limits ([load])", Checks: []Check{
		{Status: Info, What: "calls", Detail: fmt.Sprintf("%d at once, %d more queued; beyond them BUSY", l.MaxCalls, l.QueuedCalls)},
		{Status: Info, What: "calls that start programs", Detail: fmt.Sprintf("%d at once, %d more queued, each waiting at most %s", l.MaxProgramCalls, l.QueuedProgramCalls, l.QueueWait.Duration)},
		{Status: Info, What: "rate", Detail: fmt.Sprintf("%g calls/s per client, burst %d; beyond it RATE_LIMITED", l.CallsPerSecond, l.Burst)},
		{Status: Info, What: "HTTP requests", Detail: fmt.Sprintf("%d at once; beyond them 429", l.MaxHTTPRequests)},
	}}
}

// indentLines keeps a multi-line error readable under its check.
func indentLines(s string) string {
	return strings.ReplaceAll(strings.TrimSpace(s), "\n", "\n          ")
}
