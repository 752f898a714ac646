package doctor

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/httpserve"
	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl"
)

// Options are what Collect loads and opens, as serve would.
type Options struct {
	Flags   config.Flags
	Env     func(string) string
	Cwd     string
	Version string
}

// Collect gathers the facts: it loads the configuration and opens the
// server exactly as serve does (creating the state directory if need be,
// and finishing an interrupted fs_apply_diff as serve would at start-up),
// then reads what this host allows. It serves nothing.
func Collect(ctx context.Context, o *Options) *Facts {
	f := &Facts{ConfigFile: o.Flags.ConfigPath}
	if f.ConfigFile == "" {
		f.ConfigFile = o.Env(config.EnvConfig)
	}
	cfg, err := config.Load(o.Flags, o.Env, o.Cwd)
	if err != nil {
		f.ConfigErr = err
		return f
	}
	f.Config = cfg
	f.Roots = rootFacts(cfg.Roots)
	f.RootWarnings = fsroot.Warnings(cfg.Roots, fsroot.ProtectedHardlinks())
	f.Token = tokenFacts(cfg, o.Env)
	f.LandlockABI = landlock.ABI()
	f.UserNS.Needed, f.UserNS.Blocked, f.UserNS.Fix = repl.UserNSCheck()

	quiet := slog.New(slog.DiscardHandler)
	a, err := app.Open(ctx, cfg, o.Version, quiet)
	hasBinary := func(string) bool { return false }
	if err != nil {
		f.OpenErr = err
	} else {
		defer a.Close()
		for _, ts := range a.Server.Toolsets() {
			tf := ToolsetFacts{Name: ts.Name}
			for _, d := range ts.Tools {
				tf.Tools = append(tf.Tools, d.Spec.Name)
			}
			f.Toolsets = append(f.Toolsets, tf)
		}
		for _, name := range app.Programs {
			p, _ := a.Exec.Path(name)
			f.Programs = append(f.Programs, Program{Name: name, Path: p})
		}
		hasBinary = a.Exec.Available
	}
	f.State = stateFacts(cfg.StateDir)
	info, err := app.Host(cfg).Info(ctx, &hostinfo.InfoOptions{HasBinary: hasBinary})
	f.HostErr = err
	f.Caps, f.Virt = info.Capabilities, info.Virtualization
	return f
}

// rootFacts asks the kernel whether each root can be used as configured.
func rootFacts(roots []config.Root) []RootFacts {
	var out []RootFacts
	for _, r := range roots {
		rf := RootFacts{Root: r}
		var st unix.Statfs_t
		if err := unix.Statfs(r.Path, &st); err != nil {
			rf.Err = err
		} else {
			rf.ReadOnlyMount = st.Flags&unix.ST_RDONLY != 0
			rf.Writable = unix.Access(r.Path, unix.W_OK) == nil
		}
		out = append(out, rf)
	}
	return out
}

// stateFacts describes the state directory; Collect has opened it first.
func stateFacts(dir string) StateFacts {
	s := StateFacts{Path: dir}
	fi, err := os.Stat(dir)
	if err != nil {
		s.Err = err
		return s
	}
	s.Mode = uint32(fi.Mode().Perm())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s.UID = int(st.Uid)
	}
	if unix.Access(dir, unix.W_OK) != nil {
		s.Err = fmt.Errorf("%s: this user (uid %d) cannot write in it", dir, os.Geteuid())
	}
	return s
}

// tokenFacts says where the token would come from, and checks it as serve
// would, without keeping it.
func tokenFacts(cfg *config.Config, env func(string) string) TokenFacts {
	var t TokenFacts
	switch {
	case env(config.EnvToken) != "":
		t.Source = "env " + config.EnvToken
	case cfg.HTTP.TokenFile != "":
		t.Source = "file " + cfg.HTTP.TokenFile
	}
	tok, err := cfg.Token(env)
	if err != nil {
		t.Err = err
		return t
	}
	if cfg.HTTP.Addr != "" {
		t.AddrErr = httpserve.CheckAddr(cfg.HTTP.Addr, tok)
	}
	return t
}
