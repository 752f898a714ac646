package bpftrace

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// gateSet is a toolset with conf, for the gates alone (no bpftrace needed).
func gateSet(edit func(*config.BpftraceConf)) *Set {
	conf := config.DefaultBpftrace()
	if edit != nil {
		edit(&conf)
	}
	return &Set{conf: conf}
}

// Calls: cat() follows allow_cat, the --unsafe builtins allow_unsafe_builtins
// (bpftrace then refuses them itself), skboutput() nothing.
func TestGateCalls(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(*config.BpftraceConf)
		calls []string
		want  tool.Code // "" when let through
		key   string
	}{
		{"harmless", nil, []string{"printf", "count", "str", "buf"}, "", ""},
		{"cat", nil, []string{"printf", "cat"}, tool.FeatureDisabled, "[bpftrace] allow_cat = true"},
		{"cat allowed", func(c *config.BpftraceConf) { c.AllowCat = true }, []string{"cat"}, "", ""},
		{"system", nil, []string{"system"}, tool.CommandNotAllowed, "allow_unsafe_builtins"},
		{"signal", nil, []string{"signal"}, tool.CommandNotAllowed, "allow_unsafe_builtins"},
		{"override", nil, []string{"override"}, tool.CommandNotAllowed, "allow_unsafe_builtins"},
		{"unsafe allowed", func(c *config.BpftraceConf) { c.AllowUnsafeBuiltins = true }, []string{"system"}, "", ""},
		{"skboutput whatever the settings", func(c *config.BpftraceConf) { c.AllowCat, c.AllowUnsafeBuiltins = true, true }, []string{"skboutput"}, tool.CommandNotAllowed, "no setting"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := map[string]bool{}
			for _, c := range tc.calls {
				calls[c] = true
			}
			checkCode(t, gateSet(tc.edit).gateCalls(calls), tc.want, tc.key)
		})
	}
}

func checkCode(t *testing.T, err error, want tool.Code, key string) {
	t.Helper()
	if want == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	terr := tool.AsError(err)
	if terr == nil || terr.Code != want || !strings.Contains(terr.Message, key) {
		t.Fatalf("got %v, want %s naming %q", err, want, key)
	}
}

// Attach points: kernel probe types pass, some types are never offered, an
// unknown type or a relative target is refused, and a target is found
// whichever colon ends it (a quoted target may hold one).
func TestGateProbes(t *testing.T) {
	testutil.RequireFile(t, "/usr/bin/bash")
	dir := t.TempDir()
	if err := os.Symlink("/usr/bin/bash", filepath.Join(dir, "a:b")); err != nil {
		t.Fatal(err)
	}
	copyFile(t, "/usr/bin/true", filepath.Join(dir, "true"), 0o755)
	policy := loadTargetPolicy("/etc/shells", os.Geteuid())
	for _, tc := range []struct {
		name   string
		edit   func(*config.BpftraceConf)
		probes []string
		want   tool.Code
		key    string
	}{
		{"kernel side", nil, []string{"BEGIN", "END", "tracepoint:sched:sched_switch", "kprobe:vfs_read", "kretprobe:vfs_read",
			"kfunc:vfs_read", "kretfunc:vfs_read", "profile:hz:99", "interval:s:1", "software:cpu-clock:1000", "hardware:cache-misses:1000"}, "", ""},
		{"root's own program", nil, []string{"uprobe:" + filepath.Join(dir, "true") + ":main"}, "", ""},
		{"nothing there", nil, []string{"uprobe:" + filepath.Join(dir, "missing") + ":main"}, "", ""},
		{"a colon in the target", nil, []string{"uretprobe:" + filepath.Join(dir, "a:b") + ":readline"}, tool.FeatureDisabled, "allow_shell_uprobes"},
		{"shell allowed", func(c *config.BpftraceConf) { c.AllowShellUprobes = true }, []string{"uretprobe:/usr/bin/bash:readline"}, "", ""},
		{"wildcard", nil, []string{"uprobe:" + dir + "/*:f"}, tool.FeatureDisabled, "allow_shell_uprobes"},
		{"iter", nil, []string{"iter:task"}, tool.CommandNotAllowed, "/sys/fs/bpf"},
		{"watchpoint", nil, []string{"watchpoint:4096:4:w"}, tool.CommandNotAllowed, "watchpoint"},
		{"asyncwatchpoint", nil, []string{"asyncwatchpoint:4096:4:w"}, tool.CommandNotAllowed, "asyncwatchpoint"},
		{"unknown type", nil, []string{"rawtracepoint:sched_switch"}, tool.CommandNotAllowed, "unknown probe type"},
		{"relative target", nil, []string{"uprobe:bin/bash:readline"}, tool.InvalidArgument, "absolute path"},
		{"all allowed", func(c *config.BpftraceConf) {
			c.AllowShellUprobes, c.AllowLibraryUprobes, c.AllowOthersUprobes = true, true, true
		},
			[]string{"uprobe:/usr/bin/bash:readline", "usdt:" + findLibc(t) + ":libc:setjmp", "uprobe:/usr/bin/su*:main"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkCode(t, gateSet(tc.edit).gateProbes(tc.probes, policy), tc.want, tc.key)
		})
	}
}

// The wildcard expansion matches as glob(3) does, level by level, and stops
// at the limit instead of walking on.
func TestGlob(t *testing.T) {
	dir := t.TempDir()
	for _, p := range []string{"x/one", "x/two", "y/one", ".hidden/one"} {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := glob(dir+"/*/one", 10)
	want := []string{dir + "/.hidden/one", dir + "/x/one", dir + "/y/one"}
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("got %q %v, want %q", got, err, want)
	}
	if got, err := glob(dir+"/x/t[w]?", 10); err != nil || !slices.Equal(got, []string{dir + "/x/two"}) {
		t.Fatalf("got %q %v", got, err)
	}
	if _, err := glob(dir+"/*/*", 3); !errors.Is(err, errTooMany) {
		t.Fatalf("past the limit: %v", err)
	}
	if _, err := glob(dir+"/[", 3); err == nil {
		t.Fatal("a bad pattern was accepted")
	}
}
