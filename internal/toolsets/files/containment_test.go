package files

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/toolsets/search"
)

const secret = "SECRET-OUTSIDE-MARKER"

// fixture is a root with every kind of trap in it, next to an outside
// directory and a sibling whose name extends the root's.
type fixture struct {
	base, root, outside, sibling string
	tools                        map[string]*tool.Def
	runner                       *tool.Runner
	mu                           sync.Mutex
	handles                      [][]byte
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{base: base, root: filepath.Join(base, "root"), outside: filepath.Join(base, "outside"), sibling: filepath.Join(base, "root2")}
	for _, d := range []string{f.root + "/sub/deep", f.outside + "/dir", f.sibling} {
		mustDo(t, os.MkdirAll(d, 0o755))
	}
	for p, c := range map[string]string{
		f.outside + "/secret.txt":     secret + " needle\n",
		f.outside + "/dir/secret.txt": secret + " needle\n",
		// A hard link in the root is a file of the root: its content may be
		// read, but no write through it may reach the outside name.
		f.outside + "/hardsrc.txt": "shared hard needle\n",
		f.sibling + "/secret.txt":  secret + " needle\n",
		f.root + "/in.txt":         "needle inside\n",
		f.root + "/sub/deep/a.txt": "needle deep\n",
	} {
		mustDo(t, os.WriteFile(p, []byte(c), 0o644))
	}
	mustDo(t, os.Symlink(f.outside+"/secret.txt", f.root+"/out_link"))
	mustDo(t, os.Symlink(f.outside, f.root+"/out_dir"))
	mustDo(t, os.Symlink("../outside/secret.txt", f.root+"/rel_out"))
	mustDo(t, os.Symlink("in.txt", f.root+"/in_link"))
	mustDo(t, syscall.Mkfifo(f.root+"/fifo", 0o644))
	mustDo(t, os.Link(f.outside+"/hardsrc.txt", f.root+"/hard"))
	if l, err := (&net{}).socket(f.root + "/sock"); err == nil {
		t.Cleanup(func() { l.Close() })
	}

	roots, err := fsroot.Open([]fsroot.Spec{{Path: f.root}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	ex, err := execx.New(&execx.Options{Allowed: []string{"rg"}})
	if err != nil {
		t.Fatal(err)
	}
	f.tools = map[string]*tool.Def{}
	for _, ts := range []tool.Toolset{New(&Deps{Roots: roots}).Toolset(), search.New(&search.Deps{Roots: roots, Exec: ex}).Toolset()} {
		for _, d := range ts.Tools {
			f.tools[d.Spec.Name] = d
		}
	}
	f.runner = &tool.Runner{Handles: func(_ context.Context, typ string, _ map[string]any, payload []byte) (string, error) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.handles = append(f.handles, append([]byte(nil), payload...))
		return fmt.Sprintf("H_%s_%d", typ, len(f.handles)), nil
	}}
	return f
}

// call runs one tool and checks that its answer and any handle it stored
// hold no outside content, and no outside path the caller did not give.
func (f *fixture) call(t *testing.T, name string, args map[string]any) tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	f.mu.Lock()
	before := len(f.handles)
	f.mu.Unlock()
	res := f.runner.Run(context.Background(), tool.Invocation{Def: f.tools[name], Args: raw})
	if err := tool.ValidateEnvelope(f.tools[name], res.JSON); err != nil {
		t.Errorf("%s %s: %v", name, raw, err)
	}
	f.mu.Lock()
	out := string(res.JSON)
	for _, h := range f.handles[before:] {
		out += string(h)
	}
	f.mu.Unlock()
	if strings.Contains(out, secret) {
		t.Errorf("%s %s: outside content in the reply:\n%s", name, raw, out)
	}
	for _, p := range []string{f.outside, f.sibling} {
		if strings.Contains(out, p) && !strings.Contains(string(raw), p) {
			t.Errorf("%s %s: the reply names %s:\n%s", name, raw, p, out)
		}
	}
	return res
}

// snapshot fingerprints everything outside the root: names, types, modes
// and contents.
func (f *fixture) snapshot(t *testing.T) string {
	t.Helper()
	h := sha256.New()
	for _, d := range []string{f.outside, f.sibling} {
		_ = filepath.WalkDir(d, func(p string, de fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			info, _ := de.Info()
			fmt.Fprintf(h, "%s %v %d\n", p, info.Mode(), info.Size())
			if de.Type().IsRegular() {
				b, _ := os.ReadFile(p)
				h.Write(b)
			}
			return nil
		})
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// TestContainment tries every trap against every tool and checks after each
// call that nothing outside the root was read, changed or named.
func TestContainment(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	f := newFixture(t)
	o := f.outside
	escapes := []string{
		"../outside/secret.txt", o + "/secret.txt", f.sibling + "/secret.txt", "sub/../../outside/secret.txt",
		"out_dir/secret.txt", "rel_out", "out_link", "in\x00.txt", "/", "/etc/passwd",
	}
	type attempt struct {
		tool string
		args map[string]any
		ok   bool // the call may succeed (it stays inside)
	}
	var cases []attempt
	for _, p := range escapes {
		cases = append(cases,
			attempt{"fs_read", map[string]any{"path": p}, false},
			attempt{"fs_write", map[string]any{"path": p, "content": "pwned"}, false},
			attempt{"fs_write", map[string]any{"path": p, "content": "pwned", "mode": "append"}, false},
			attempt{"fs_list", map[string]any{"path": p}, false},
			attempt{"fs_list", map[string]any{"path": p, "dir_sizes": true}, false},
			attempt{"fs_mkdirs", map[string]any{"path": p + "/new"}, false},
			attempt{"fs_move", map[string]any{"source": "in.txt", "target": p}, false},
			// Last: these remove a link (never its target), which is allowed.
			attempt{"fs_move", map[string]any{"source": p, "target": "moved"}, p == "out_link" || p == "rel_out"},
			attempt{"fs_delete", map[string]any{"path": p, "recursive": true}, p == "out_link" || p == "rel_out"},
		)
	}
	for _, d := range []string{"out_dir", "../outside", o, f.sibling, "out_dir/dir", "in\x00"} {
		for _, eng := range []string{"rg", "native"} {
			cases = append(cases,
				attempt{"search_content", map[string]any{"root": d, "pattern": "needle", "engine": eng}, false},
				attempt{"search_files", map[string]any{"root": d, "pattern": "secret", "engine": eng}, false},
			)
		}
	}
	for _, eng := range []string{"rg", "native"} {
		for _, h := range []bool{false, true} {
			cases = append(cases,
				attempt{"search_content", map[string]any{"pattern": "needle", "engine": eng, "include_hidden": h, "include_ignored": true}, true},
				attempt{"search_files", map[string]any{"pattern": "", "engine": eng, "include_hidden": h}, true},
			)
		}
	}
	cases = append(cases,
		attempt{"fs_read", map[string]any{"path": "fifo"}, false},
		attempt{"fs_read", map[string]any{"path": "sock"}, false},
		attempt{"fs_read", map[string]any{"path": "in_link"}, true},
		attempt{"fs_write", map[string]any{"path": "fifo", "content": "x"}, false},
		attempt{"fs_write", map[string]any{"path": "hard", "content": "pwned"}, false},
		attempt{"fs_write", map[string]any{"path": "hard", "content": "pwned", "mode": "append"}, false},
		attempt{"fs_write", map[string]any{"path": "hard", "content": "mine", "allow_hardlink": true}, true},
		attempt{"fs_list", map[string]any{"path": ".", "depth": 10, "include_hidden": true}, true},
		attempt{"fs_list", map[string]any{"path": ".", "depth": 0, "dir_sizes": true, "sort": "size"}, true},
		attempt{"fs_delete", map[string]any{"path": ".", "recursive": true}, false},
		attempt{"fs_delete", map[string]any{"path": f.root, "recursive": true, "dry_run": true}, false},
		attempt{"fs_delete", map[string]any{"path": f.base, "recursive": true}, false},
		attempt{"fs_move", map[string]any{"source": ".", "target": "x"}, false},
		attempt{"fs_move", map[string]any{"source": "sub", "target": "out_dir", "overwrite": true}, true}, // replaces the link, not the directory
		attempt{"fs_mkdirs", map[string]any{"path": "out_dir"}, false},
	)
	want := f.snapshot(t)
	for _, c := range cases {
		res := f.call(t, c.tool, c.args)
		if !c.ok && res.Err == nil {
			t.Errorf("%s %v: succeeded, want a refusal: %s", c.tool, c.args, res.JSON)
		}
		if got := f.snapshot(t); got != want {
			t.Fatalf("%s %v changed something outside the root", c.tool, c.args)
		}
	}
	if _, err := os.Lstat(f.root); err != nil {
		t.Fatalf("the root is gone: %v", err)
	}
}

// TestContainmentSwap swaps a directory for a link to the outside while
// searches, listings and reads run, and checks no reply ever holds
// outside content.
func TestContainmentSwap(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	f := newFixture(t)
	real := f.root + "/swap"
	mustDo(t, os.MkdirAll(real, 0o755))
	for i := range 50 {
		mustDo(t, os.WriteFile(fmt.Sprintf("%s/f%02d.txt", real, i), []byte("needle swap\n"), 0o644))
	}
	var stop atomic.Bool
	var swaps atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		aside := f.root + "/swap.aside"
		for !stop.Load() {
			if os.Rename(real, aside) != nil {
				continue
			}
			_ = os.Symlink(f.outside+"/dir", real)
			_ = os.Remove(real)
			_ = os.Rename(aside, real)
			swaps.Add(1)
		}
	}()
	for i := range 40 {
		eng := []string{"rg", "native"}[i%2]
		f.call(t, "search_content", map[string]any{"pattern": "needle", "engine": eng, "context_lines": 0})
		f.call(t, "search_content", map[string]any{"root": "swap", "pattern": "needle", "engine": eng})
		f.call(t, "search_files", map[string]any{"pattern": "secret", "engine": eng})
		f.call(t, "fs_read", map[string]any{"path": "swap/secret.txt"})
		f.call(t, "fs_list", map[string]any{"path": "swap"})
		f.call(t, "fs_list", map[string]any{"path": ".", "dir_sizes": true})
	}
	stop.Store(true)
	<-done
	if swaps.Load() < 10 {
		t.Fatalf("only %d swaps happened: the test did not exercise the race", swaps.Load())
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
