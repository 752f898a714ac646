package repl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Only the arguments [repl] args lists for a program may follow it, and
// paths only inside the roots: no code on the command line (python3 -c,
// node -e), no script from elsewhere, nothing after a program that lists
// none.
func TestArgsPinned(t *testing.T) {
	testutil.RequireBinary(t, "python3")
	outside := t.TempDir()
	script := filepath.Join(outside, "x.py")
	if err := os.WriteFile(script, []byte("print('outside')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newTestSet(t, func(c *config.ReplConf) { c.Programs = append(c.Programs, "sh") })
	root := s.roots.Roots()[0].Path
	if err := os.Symlink(script, filepath.Join(root, "link.py")); err != nil {
		t.Fatal(err)
	}
	refused := [][]string{
		{"python3", "-c", "print(1)"},
		{"python3", "-m", "http.server"},
		{"python3", script},
		{"python3", "../" + filepath.Base(outside) + "/x.py"},
		{"python3", "link.py"}, // a symbolic link out of the root
		{"python3", "-q", "-c", "print(1)"},
		{"python3", "-Wignore"},
		{"node", "-e", "1"},
		{"node", "--require", "x"},
		{"sqlite3", "-cmd", ".shell id"},
		{"sh", "-c", "id"},
		{"sh", "script"},
	}
	for _, argv := range refused {
		_, terr := run[startOut](t, s.start(), "test", startIn{Command: argv})
		if terr == nil || terr.Code != tool.CommandNotAllowed {
			t.Errorf("%q: %v, want %s", argv, terr, tool.CommandNotAllowed)
			continue
		}
		if !strings.Contains(terr.Suggestion, "repl.args") {
			t.Errorf("%q: the suggestion does not name [repl.args]: %s", argv, terr.Suggestion)
		}
	}
	if len(s.reg.list()) != 0 {
		t.Errorf("refused starts left sessions: %d", len(s.reg.list()))
	}
	// A script inside the roots runs, with the listed options.
	if err := os.WriteFile(filepath.Join(root, "hello.py"), []byte("print('hello from the root')\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	st := mustRun[startOut](t, s.start(), startIn{Command: []string{"python3", "-u", "hello.py"}})
	rd := mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 20000})
	for i := 0; rd.State != stateExited && i < 20; i++ {
		rd = mustRun[readOut](t, s.read(), map[string]any{"proc_id": st.ProcID, "offset": 0, "timeout_ms": 1000})
	}
	if !strings.Contains(rd.Output, "hello from the root") {
		t.Errorf("python3 -u hello.py: %q", rd.Output)
	}
}

// Variables that make an interpreter or the loader run code at start-up,
// or move the session's HOME, are refused; others pass.
func TestStartupVariablesRefused(t *testing.T) {
	s := newTestSet(t, nil)
	for _, key := range []string{"PYTHONSTARTUP", "PYTHONPATH", "PYTHONHOME", "PYTHONINSPECT", "NODE_OPTIONS", "NODE_PATH",
		"NODE_REPL_EXTERNAL_MODULE", "RUBYOPT", "RUBYLIB", "IRBRC", "GEM_PATH", "PERL5OPT", "LD_PRELOAD", "LD_LIBRARY_PATH",
		"GCONV_PATH", "GLIBC_TUNABLES", "BASH_ENV", "ENV", "OPENSSL_CONF", "SQLITE_HISTORY", "HOME", "TMPDIR", "XDG_CONFIG_HOME", "PATH"} {
		_, terr := run[startOut](t, s.start(), "test", startIn{Command: []string{"python3"}, Env: map[string]string{key: "/x"}})
		if terr == nil || terr.Code != tool.InvalidArgument || !strings.Contains(terr.Message, key) {
			t.Errorf("env %s: %v, want %s naming it", key, terr, tool.InvalidArgument)
		}
	}
	testutil.RequireBinary(t, "python3")
	st := mustRun[startOut](t, s.start(), startIn{Command: []string{"python3"}, Env: map[string]string{"PYTHONUNBUFFERED": "1", "APP_MODE": "test"}})
	if got := eval(t, s, st.ProcID, "import os; print(os.environ['APP_MODE'], os.environ['PYTHONUNBUFFERED'])"); !strings.Contains(got, "\ntest 1\n") {
		t.Errorf("the allowed variables: %q", got)
	}
}
