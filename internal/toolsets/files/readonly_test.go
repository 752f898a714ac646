package files

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
	"golang.org/x/sys/unix"
)

// nestedRO is a read-write root R holding a read-only root R/ro, and a way
// into R/ro that the path's spelling does not show: alias, a symbolic link
// to ro inside R, or (live) a bind mount of ro inside R.
type nestedRO struct {
	rw, ro string
	tools  map[string]*tool.Def
}

func newNestedRO(t *testing.T) *nestedRO {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := &nestedRO{rw: filepath.Join(base, "R"), ro: filepath.Join(base, "R", "ro")}
	mustDo(t, os.MkdirAll(filepath.Join(n.ro, "dir"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(n.ro, "f.txt"), []byte("read-only\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(n.ro, "dir", "g.txt"), []byte("read-only\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(n.rw, "x.txt"), []byte("movable\n"), 0o644))
	mustDo(t, os.MkdirAll(filepath.Join(n.rw, "xdir"), 0o755))
	mustDo(t, os.Symlink("ro", filepath.Join(n.rw, "alias")))
	roots, err := fsroot.Open([]fsroot.Spec{{Path: n.rw}, {Path: n.ro, ReadOnly: true}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { roots.Close() })
	n.tools = map[string]*tool.Def{}
	for _, d := range New(&Deps{Roots: roots}).Toolset().Tools {
		n.tools[d.Spec.Name] = d
	}
	return n
}

// tree fingerprints the read-only root: names, modes and contents.
func (n *nestedRO) tree(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{}
	mustDo(t, filepath.Walk(n.ro, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		v := fi.Mode().String()
		if fi.Mode().IsRegular() {
			b, _ := os.ReadFile(p)
			v += " " + string(b)
		}
		out[p] = v
		return nil
	}))
	return out
}

// TestReadOnlyRootThroughSymlink: a read-only root stays read-only however
// the path to it is spelled. Every mutating files tool is tried through a
// symbolic link into the read-only root; each must answer READ_ONLY and
// leave the root as it was.
func TestReadOnlyRootThroughSymlink(t *testing.T) {
	n := newNestedRO(t)
	n.refusesAll(t, filepath.Join(n.rw, "alias"))
	// The read-write root itself still takes writes, and the link itself
	// (a name in R) may be removed: only what it leads to is read-only.
	if _, terr := tooltest.Run[map[string]any](t, context.Background(), n.tools["fs_write"], "test", map[string]any{"path": n.rw + "/ok.txt", "content": "x"}); terr != nil {
		t.Errorf("write in the read-write root: %v", terr)
	}
	if _, terr := tooltest.Run[map[string]any](t, context.Background(), n.tools["fs_delete"], "test", map[string]any{"path": n.rw + "/alias"}); terr != nil {
		t.Errorf("deleting the link itself: %v", terr)
	}
}

// TestReadOnlyRootThroughBindMount is the same through a bind mount of the
// read-only root inside the read-write one: no symbolic link to follow,
// only the directory's identity tells.
func TestReadOnlyRootThroughBindMount(t *testing.T) {
	testutil.RequireRoot(t)
	n := newNestedRO(t)
	bind := filepath.Join(n.rw, "bind")
	mustDo(t, os.Mkdir(bind, 0o755))
	mustDo(t, unix.Mount(n.ro, bind, "", unix.MS_BIND, ""))
	t.Cleanup(func() { _ = unix.Unmount(bind, unix.MNT_DETACH) })
	n.refusesAll(t, bind)
}

// refusesAll tries every mutating files tool on paths through into, which
// leads to the read-only root.
func (n *nestedRO) refusesAll(t *testing.T, into string) {
	t.Helper()
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"fs_write", map[string]any{"path": into + "/new.txt", "content": "x"}},
		{"fs_write", map[string]any{"path": into + "/f.txt", "content": "x"}},
		{"fs_write", map[string]any{"path": into + "/f.txt", "content": "x", "mode": "append"}},
		{"fs_write", map[string]any{"path": into + "/made/new.txt", "content": "x", "create_parents": true}},
		{"fs_mkdirs", map[string]any{"path": into + "/newdir/sub"}},
		{"fs_move", map[string]any{"source": n.rw + "/x.txt", "target": into + "/x.txt"}},
		{"fs_move", map[string]any{"source": n.rw + "/xdir", "target": into + "/xdir"}},
		{"fs_move", map[string]any{"source": into + "/f.txt", "target": n.rw + "/stolen.txt"}},
		{"fs_delete", map[string]any{"path": into + "/f.txt"}},
		{"fs_delete", map[string]any{"path": into + "/dir", "recursive": true}},
	}
	for _, c := range calls {
		before := n.tree(t)
		_, terr := tooltest.Run[map[string]any](t, context.Background(), n.tools[c.tool], "test", c.args)
		if terr == nil || terr.Code != tool.ReadOnlyMode {
			t.Errorf("%s %v: want READ_ONLY, got %v", c.tool, c.args, terr)
		}
		after := n.tree(t)
		for p, v := range before {
			if after[p] != v {
				t.Errorf("%s %v changed %s: %q -> %q", c.tool, c.args, p, v, after[p])
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok {
				t.Errorf("%s %v created %s", c.tool, c.args, p)
			}
		}
	}
}

// TestHardLinkPolicy pins what a file with several names is: a name inside
// a root is a file of that root. It is read through that name (fs_read says
// how many names it has), and a write replaces that name only, never the
// content the other names share, wherever they are: outside the roots or
// in a read-only root.
func TestHardLinkPolicy(t *testing.T) {
	n := newNestedRO(t)
	outside := filepath.Join(filepath.Dir(n.rw), "outside.txt")
	mustDo(t, os.WriteFile(outside, []byte("shared\n"), 0o644))
	mustDo(t, os.Link(outside, filepath.Join(n.rw, "out-link.txt")))
	mustDo(t, os.Link(filepath.Join(n.ro, "f.txt"), filepath.Join(n.rw, "ro-link.txt")))
	ctx := context.Background()

	got := tooltest.MustRun[readOut](t, ctx, n.tools["fs_read"], map[string]any{"path": "out-link.txt"})
	if got.Content != "shared\n" || got.Meta.HardLinks != 2 {
		t.Errorf("reading through a hard link: %q, hard_links %d", got.Content, got.Meta.HardLinks)
	}
	for _, name := range []string{"out-link.txt", "ro-link.txt"} {
		if _, terr := tooltest.Run[writeOut](t, ctx, n.tools["fs_write"], "test", map[string]any{"path": name, "content": "x"}); terr == nil || terr.Code != tool.NotAFile {
			t.Errorf("%s: a write without allow_hardlink must be refused, got %v", name, terr)
		}
		tooltest.MustRun[writeOut](t, ctx, n.tools["fs_write"], map[string]any{"path": name, "content": "mine\n", "allow_hardlink": true})
		if b, _ := os.ReadFile(filepath.Join(n.rw, name)); string(b) != "mine\n" {
			t.Errorf("%s: the name written holds %q", name, b)
		}
	}
	if b, _ := os.ReadFile(outside); string(b) != "shared\n" {
		t.Errorf("the name outside the roots changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(n.ro, "f.txt")); string(b) != "read-only\n" {
		t.Errorf("the name in the read-only root changed: %q", b)
	}
}
