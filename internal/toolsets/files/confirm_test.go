package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// plannedRoot is a root holding tree/ (two files of 1000 and 24 bytes, one
// in a subdirectory) and a.txt, with the files tools over it.
func plannedRoot(t *testing.T) (string, map[string]*tool.Def) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	mustDo(t, err)
	for name, size := range map[string]int{"tree/one.bin": 1000, "tree/sub/two.txt": 24, "a.txt": 6} {
		p := filepath.Join(root, name)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte(strings.Repeat("x", size-1)+"\n"), 0o644))
	}
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	mustDo(t, err)
	t.Cleanup(func() { roots.Close() })
	tools := map[string]*tool.Def{}
	for _, d := range New(&Deps{Roots: roots}).Toolset().Tools {
		tools[d.Spec.Name] = d
	}
	return root, tools
}

// fingerprint is everything under dir: names, types, modes, sizes,
// modification times and contents. Equal fingerprints mean byte-identical
// trees that nothing touched.
func fingerprint(t *testing.T, dir string) string {
	t.Helper()
	h := sha256.New()
	mustDo(t, filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v %d %d\n", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if de.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	}))
	return fmt.Sprintf("%x", h.Sum(nil))
}

// A dry run of a recursive delete says exactly what would go and changes
// nothing; the real call asks with the same summary, and a no leaves the
// tree as it was.
func TestDeleteDryRunAndConfirmation(t *testing.T) {
	root, tools := plannedRoot(t)
	ctx := context.Background()
	before := fingerprint(t, root)
	dry := tooltest.MustRun[deleteOut](t, ctx, tools["fs_delete"], map[string]any{"path": "tree", "recursive": true, "dry_run": true})
	if dry.Deleted || dry.TotalPaths != 4 || dry.Bytes != 1024 || strings.Join(dry.WouldGo, ",") != "one.bin,sub,sub/two.txt" || dry.Plan == nil {
		t.Fatalf("dry run: %+v", dry)
	}
	want := fmt.Sprintf("Delete %q and everything in it: 2 files, 1 directory, 1.0 KiB, newest changed 0 s ago", filepath.Join(root, "tree"))
	if dry.Plan.Summary != want {
		t.Errorf("summary %q, want %q", dry.Plan.Summary, want)
	}
	if fingerprint(t, root) != before {
		t.Fatal("the dry run changed the root")
	}

	_, asked, terr := tooltest.RunAsked[deleteOut](t, ctx, tools["fs_delete"], map[string]any{"path": "tree", "recursive": true}, tooltest.Decline, "recursive")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want || asked[0].Because != "recursive" {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	if fingerprint(t, root) != before {
		t.Fatal("a declined delete changed the root")
	}
	// A single file is no recursive delete: the default rule does not ask.
	out, asked, terr := tooltest.RunAsked[deleteOut](t, ctx, tools["fs_delete"], map[string]any{"path": "a.txt"}, tooltest.Decline, "recursive", "bytes>6")
	if terr != nil || !out.Deleted || len(asked) != 0 {
		t.Errorf("a file of 6 bytes: %+v, %+v, asked %+v", out, terr, asked)
	}
}

// What a person accepts is what goes: a file written into the tree while
// the question is open makes the call ask again, with the new count, and
// only the second yes deletes.
func TestDeleteAsksAgainWhenTheTreeChanged(t *testing.T) {
	root, tools := plannedRoot(t)
	answer := func(n int, q tool.Question) string {
		if n == 1 {
			mustDo(t, os.WriteFile(filepath.Join(root, "tree/late.txt"), []byte("late\n"), 0o644))
		}
		return tool.ActionAccept
	}
	out, asked, terr := tooltest.RunAsked[deleteOut](t, context.Background(), tools["fs_delete"], map[string]any{"path": "tree", "recursive": true}, answer, "entries>1")
	if terr != nil || !out.Deleted || out.TotalPaths != 5 {
		t.Fatalf("got %+v, %+v", out, terr)
	}
	if len(asked) != 2 || !strings.Contains(asked[0].Summary, ": 2 files,") || !asked[1].Changed || !strings.Contains(asked[1].Summary, ": 3 files,") {
		t.Fatalf("questions: %+v", asked)
	}
	if _, err := os.Lstat(filepath.Join(root, "tree")); !os.IsNotExist(err) {
		t.Errorf("tree is still there: %v", err)
	}
}

// fs_move's dry run says what would move and what it would replace, and
// changes nothing; a replacing move asks, with both sides in the question.
func TestMoveDryRunAndConfirmation(t *testing.T) {
	root, tools := plannedRoot(t)
	ctx := context.Background()
	before := fingerprint(t, root)
	args := map[string]any{"source": "tree/one.bin", "target": "a.txt", "overwrite": true}
	dry := tooltest.MustRun[moveOut](t, ctx, tools["fs_move"], withDryRun(args))
	want := fmt.Sprintf("Move the file %q (1000 B, changed 0 s ago) to %q, replacing the file %q (6 B, changed 0 s ago)",
		filepath.Join(root, "tree/one.bin"), filepath.Join(root, "a.txt"), filepath.Join(root, "a.txt"))
	if dry.OK || !dry.Replaces || dry.Entries != 1 || dry.Bytes != 1000 || dry.Plan == nil || dry.Plan.Summary != want {
		t.Fatalf("dry run: %+v, want summary %q", dry, want)
	}
	if fingerprint(t, root) != before {
		t.Fatal("the dry run changed the root")
	}
	// The dry run refuses what the move would refuse.
	if _, terr := tooltest.Run[moveOut](t, ctx, tools["fs_move"], "test", map[string]any{"source": "tree/one.bin", "target": "a.txt", "dry_run": true}); terr == nil || terr.Code != tool.AlreadyExists {
		t.Errorf("a dry run onto an existing target without overwrite: %+v", terr)
	}
	_, asked, terr := tooltest.RunAsked[moveOut](t, ctx, tools["fs_move"], args, tooltest.Decline, "replaces")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want || fingerprint(t, root) != before {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	out, asked, terr := tooltest.RunAsked[moveOut](t, ctx, tools["fs_move"], map[string]any{"source": "tree", "target": "moved"}, tooltest.Decline, "replaces", "entries>4")
	if terr != nil || !out.OK || len(asked) != 0 {
		t.Fatalf("a move replacing nothing: %+v, %+v, asked %+v", out, terr, asked)
	}
	if _, err := os.Stat(filepath.Join(root, "moved/sub/two.txt")); err != nil {
		t.Errorf("the tree did not move: %v", err)
	}
}

// fs_write's dry run shows the diff it would make and changes nothing; a
// rewrite of an existing file asks when the rule says so.
func TestWriteDryRunAndConfirmation(t *testing.T) {
	root, tools := plannedRoot(t)
	ctx := context.Background()
	before := fingerprint(t, root)
	args := map[string]any{"path": "a.txt", "content": "hello\nworld\n"}
	dry := tooltest.MustRun[writeOut](t, ctx, tools["fs_write"], withDryRun(args))
	want := fmt.Sprintf("Replace the content of the file %q (6 B, changed 0 s ago) with 12 B", filepath.Join(root, "a.txt"))
	if dry.BytesWritten != 0 || dry.WouldWrite != 12 || dry.Created || dry.Plan == nil || dry.Plan.Summary != want ||
		!strings.Contains(dry.Diff, "-xxxxx\n+hello\n+world\n") {
		t.Fatalf("dry run: %+v, want summary %q", dry, want)
	}
	created := tooltest.MustRun[writeOut](t, ctx, tools["fs_write"], map[string]any{"path": "new/dir/b.txt", "content": "b\n", "create_parents": true, "dry_run": true})
	if !created.Created || created.Plan == nil || created.Plan.Summary != fmt.Sprintf("Create the file %q with 2 B, and the directories new, new/dir", filepath.Join(root, "new/dir/b.txt")) {
		t.Errorf("dry run of a new file: %+v", created)
	}
	if _, terr := tooltest.Run[writeOut](t, ctx, tools["fs_write"], "test", map[string]any{"path": "a.txt", "content": "x", "expected_sha256": strings.Repeat("0", 64), "dry_run": true}); terr == nil || terr.Code != tool.ShaMismatch {
		t.Errorf("a dry run with a stale sha: %+v", terr)
	}
	if fingerprint(t, root) != before {
		t.Fatal("a dry run changed the root")
	}
	_, asked, terr := tooltest.RunAsked[writeOut](t, ctx, tools["fs_write"], args, tooltest.Decline, "replaces")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || asked[0].Summary != want || fingerprint(t, root) != before {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	out, asked, terr := tooltest.RunAsked[writeOut](t, ctx, tools["fs_write"], map[string]any{"path": "a.txt", "content": "more\n", "mode": "append"}, tooltest.Decline, "replaces", "bytes>5")
	if terr != nil || out.BytesWritten != 5 || len(asked) != 0 {
		t.Fatalf("an append of 5 bytes: %+v, %+v, asked %+v", out, terr, asked)
	}
}

// fs_mkdirs' dry run names the directories it would create.
func TestMkdirsDryRun(t *testing.T) {
	root, tools := plannedRoot(t)
	ctx := context.Background()
	before := fingerprint(t, root)
	dry := tooltest.MustRun[mkdirsOut](t, ctx, tools["fs_mkdirs"], map[string]any{"path": "tree/x/y", "dry_run": true})
	if dry.Created || strings.Join(dry.WouldCreate, ",") != "tree/x,tree/x/y" || dry.Plan == nil ||
		dry.Plan.Summary != fmt.Sprintf("Create the directory %q and its missing parents: tree/x, tree/x/y", filepath.Join(root, "tree/x/y")) {
		t.Fatalf("dry run: %+v", dry)
	}
	if fingerprint(t, root) != before {
		t.Fatal("the dry run changed the root")
	}
	_, asked, terr := tooltest.RunAsked[mkdirsOut](t, ctx, tools["fs_mkdirs"], map[string]any{"path": "tree/x/y"}, tooltest.Decline, "creates>1")
	if terr == nil || terr.Code != tool.Declined || len(asked) != 1 || fingerprint(t, root) != before {
		t.Fatalf("declined: %+v, asked %+v", terr, asked)
	}
	out, asked, terr := tooltest.RunAsked[mkdirsOut](t, ctx, tools["fs_mkdirs"], map[string]any{"path": "tree"}, tooltest.Decline, "always")
	if terr == nil || terr.Code != tool.Declined || out.Created || len(asked) != 1 || !strings.Contains(asked[0].Summary, "nothing to create") {
		t.Errorf("an existing directory under always: %+v, %+v, asked %+v", out, terr, asked)
	}
}

func withDryRun(args map[string]any) map[string]any {
	out := map[string]any{"dry_run": true}
	for k, v := range args {
		out[k] = v
	}
	return out
}
