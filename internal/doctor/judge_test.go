package doctor

import (
	"errors"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// healthy are the facts of a root server with everything available.
func healthy() *Facts {
	cfg := config.Default("/srv", 0, func(string) string { return "" })
	return &Facts{
		Config:   cfg,
		Roots:    []RootFacts{{Root: config.Root{Path: "/srv"}, Writable: true}},
		Toolsets: []ToolsetFacts{{Name: "files", Tools: []string{"fs_read"}}, {Name: "trace"}, {Name: "bpftrace"}, {Name: "repl"}, {Name: "profile"}},
		Programs: []Program{{"perf", "/usr/bin/perf"}, {"rg", ""}},
		Caps: hostinfo.Capabilities{IsRoot: true, EffectiveCaps: []string{"CAP_SYS_ADMIN", "CAP_BPF"}, PerfAvailable: true, PerfPermitted: true,
			BPFAvailable: true, BTFAvailable: true, BpftraceAvailable: true, TracefsMounted: true, TracefsPath: "/sys/kernel/tracing", PSIEnabled: true},
		LandlockABI: 7,
		State:       StateFacts{Path: "/var/lib/hostmcp", Mode: 0o700},
	}
}

// find returns the first check whose What and Detail contain the words.
func find(r *Report, what, detail string) (Check, bool) {
	for _, s := range r.Sections {
		for _, c := range s.Checks {
			if c.What == what && strings.Contains(c.Detail, detail) {
				return c, true
			}
		}
	}
	return Check{}, false
}

func TestJudge(t *testing.T) {
	if r := Judge(healthy()); r.Failed() || r.Count(Warn) != 0 {
		var b strings.Builder
		_ = r.Write(&b)
		t.Fatalf("a healthy host is judged unhealthy:\n%s", b.String())
	}
	for _, tc := range []struct {
		name         string
		change       func(f *Facts)
		what, detail string
		want         Status
		fix          string
	}{
		{"config does not load", func(f *Facts) { f.Config, f.ConfigErr = nil, errors.New("x.toml:2: unknown key \"lmits\"") },
			"the configuration does not load", "lmits", Fail, "hostmcp.example.toml"},
		{"read-write root on a read-only mount", func(f *Facts) { f.Roots[0].ReadOnlyMount = true },
			"/srv", "mounted read-only", Fail, "ReadWritePaths=/srv"},
		{"read-only root on a read-only mount is fine", func(f *Facts) { f.Roots[0].ReadOnlyMount, f.Roots[0].Root.ReadOnly = true, true },
			"/srv", "read-only", OK, ""},
		{"read-write root this user cannot write", func(f *Facts) { f.Roots[0].Writable = false },
			"/srv", "cannot write", Fail, "--root /srv:ro"},
		{"root warnings", func(f *Facts) {
			f.RootWarnings = []string{"root / (read-write) gives the file tools the whole file system"}
		},
			"roots", "whole file system", Warn, "meant"},
		{"server cannot be built", func(f *Facts) { f.OpenErr = errors.New("opening the state store") },
			"the server cannot be built", "state store", Fail, ""},
		{"non-loopback without token", func(f *Facts) {
			f.Config.HTTP.Addr = "0.0.0.0:8765"
			f.Token.AddrErr = errors.New("refusing to serve on 0.0.0.0:8765 without a token")
		}, "bind", "without a token", Fail, "bind 127.0.0.1"},
		{"bad token file", func(f *Facts) {
			f.Config.HTTP.Addr = "127.0.0.1:8765"
			f.Token = TokenFacts{Source: "file /t", Err: errors.New("token file /t has mode 0644")}
		}, "token", "0644", Fail, "only its owner"},
		{"loopback without token", func(f *Facts) { f.Config.HTTP.Addr = "127.0.0.1:8765" }, "token", "none", Warn, "--token-file"},
		{"token from a file", func(f *Facts) { f.Config.HTTP.Addr = "127.0.0.1:8765"; f.Token.Source = "file /etc/hostmcp/token" },
			"token", "from file /etc/hostmcp/token", OK, ""},
		{"no eBPF with trace served", func(f *Facts) { f.Caps.BPFAvailable = false }, "eBPF", "cannot load", Warn, "CAP_BPF"},
		{"no eBPF, trace not served", func(f *Facts) { f.Caps.BPFAvailable = false; f.Toolsets = f.Toolsets[:1] }, "eBPF", "not served", Info, ""},
		{"bpftrace as non-root", func(f *Facts) { f.Caps.IsRoot = false }, "bpftrace", "only as root", Warn, "leave bpftrace out"},
		{"perf not permitted", func(f *Facts) { f.Caps.PerfPermitted = false; f.Caps.PerfEventParanoid = 2 }, "perf", "not permitted", Warn, "CAP_PERFMON"},
		{"no Landlock", func(f *Facts) { f.LandlockABI = 0 }, "Landlock", "not available", Warn, "5.13"},
		{"root without CAP_SYS_ADMIN serving repl", func(f *Facts) { f.Caps.EffectiveCaps = []string{"CAP_BPF"} }, "sessions", "CAP_SYS_ADMIN", Warn, "CapabilityBoundingSet"},
		{"user namespaces refused", func(f *Facts) {
			f.UserNS = UserNSFacts{Needed: true, Blocked: "user.max_user_namespaces is 0", Fix: "sysctl -w user.max_user_namespaces=10000"}
		}, "user namespaces", "max_user_namespaces is 0", Warn, "sysctl"},
		{"rg missing, search served", func(f *Facts) { f.Toolsets = append(f.Toolsets, ToolsetFacts{Name: "search"}) }, "rg", "native walker", Warn, "ripgrep"},
		{"state directory open to others", func(f *Facts) { f.State.Mode = 0o755 }, "/var/lib/hostmcp", "0755", Warn, "chmod 700"},
		{"state directory unusable", func(f *Facts) { f.State.Err = errors.New("permission denied") }, "/var/lib/hostmcp", "permission denied", Fail, "--state-dir"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := healthy()
			tc.change(f)
			r := Judge(f)
			c, ok := find(r, tc.what, tc.detail)
			if !ok || c.Status != tc.want || !strings.Contains(c.Fix, tc.fix) {
				var b strings.Builder
				_ = r.Write(&b)
				t.Fatalf("want %s %q ~ %q with fix ~ %q; got %+v (found %v) in:\n%s", tc.want, tc.what, tc.detail, tc.fix, c, ok, b.String())
			}
			if r.Failed() != (tc.want == Fail) {
				t.Errorf("Failed() = %v", r.Failed())
			}
			if (c.Status == Warn || c.Status == Fail) && c.Fix == "" {
				t.Errorf("a %s without a fix: %+v", c.Status, c)
			}
		})
	}
}

func TestWriteVerdictFirst(t *testing.T) {
	f := healthy()
	f.Roots[0].ReadOnlyMount = true
	var b strings.Builder
	if err := Judge(f).Write(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "hostmcp doctor: 1 problem(s) to fix") || !strings.Contains(out, "\n  FAIL  /srv: ") || !strings.Contains(out, "\n        fix: ") {
		t.Errorf("report:\n%s", out)
	}
}
