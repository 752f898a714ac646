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
