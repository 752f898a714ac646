package files

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// mountedRoot is a root whose "tree" holds a tmpfs at tree/tm and a bind
// mount of the root's own "src" at tree/bd (the same device as its parent:
// only the mount id tells it apart). It returns the root and the tools.
func mountedRoot(t *testing.T) (string, map[string]*tool.Def) {
	t.Helper()
	testutil.RequireRoot(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	mustDo(t, err)
	for _, f := range []string{"keep.txt", "tree/a.txt", "tree/sub/b.txt", "src/s.txt", "tree/tm/", "tree/bd/"} {
		p := filepath.Join(root, f)
		if strings.HasSuffix(f, "/") {
			mustDo(t, os.MkdirAll(p, 0o755))
			continue
		}
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, make([]byte, 8192), 0o644))
	}
	testutil.MountTmpfs(t, filepath.Join(root, "tree/tm"))
	mustDo(t, os.WriteFile(filepath.Join(root, "tree/tm/inside.txt"), make([]byte, 65536), 0o644))
	testutil.BindMount(t, filepath.Join(root, "src"), filepath.Join(root, "tree/bd"))
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	mustDo(t, err)
	t.Cleanup(func() { roots.Close() })
	tools := map[string]*tool.Def{}
	for _, d := range New(&Deps{Roots: roots}).Toolset().Tools {
		tools[d.Spec.Name] = d
	}
	return root, tools
}

func runTool(t *testing.T, d *tool.Def, args map[string]any) tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Errorf("%s: %v", raw, err)
	}
	return res
}

// untouched fails the test for each file of mountedRoot that is gone.
func untouched(t *testing.T, root string) {
	t.Helper()
	for _, f := range []string{"keep.txt", "tree/a.txt", "tree/sub/b.txt", "src/s.txt", "tree/tm/inside.txt", "tree/bd/s.txt"} {
		if _, err := os.Lstat(filepath.Join(root, f)); err != nil {
			t.Errorf("%s is gone: %v", f, err)
		}
	}
}

// fs_delete refuses a tree holding a mount point, and a mount point, before
// removing anything; its dry run names the mount points.
func TestDeleteRefusesMounts(t *testing.T) {
	root, tools := mountedRoot(t)
	del := tools["fs_delete"]

	res := runTool(t, del, map[string]any{"path": "tree", "recursive": true, "dry_run": true})
	if res.Err != nil {
		t.Fatalf("dry run: %s", res.JSON)
	}
	var dry deleteOut
	mustDo(t, json.Unmarshal(res.Envelope.Data, &dry))
	if !slices.Equal(dry.MountPoints, []string{"bd", "tm"}) || len(res.Envelope.Warnings) == 0 {
		t.Errorf("the dry run should name both mount points and warn: %s", res.JSON)
	}
	for _, p := range dry.WouldGo {
		if strings.HasPrefix(p, "tm/") || strings.HasPrefix(p, "bd/") {
			t.Errorf("the dry run lists %s, inside a mount", p)
		}
	}

	for _, path := range []string{"tree", "tree/tm", "tree/bd"} {
		res = runTool(t, del, map[string]any{"path": path, "recursive": true})
		if res.Err == nil || tool.Code(res.Envelope.Error.Code) != tool.PermissionDenied {
			t.Errorf("deleting %s: want PERMISSION_DENIED, got %s", path, res.JSON)
		} else if path == "tree" && !strings.Contains(res.Envelope.Error.Message, `"bd"`) {
			t.Errorf("the refusal should name the first mount point, bd: %s", res.Envelope.Error.Message)
		}
	}
	untouched(t, root)
}

// fs_list stays on the file system of the listed directory, in a listing
// and in du mode, unless cross_mounts is given.
func TestListStaysOnItsFileSystem(t *testing.T) {
	_, tools := mountedRoot(t)
	list := tools["fs_list"]
	for _, cross := range []bool{false, true} {
		res := runTool(t, list, map[string]any{"path": "tree", "depth": 5, "cross_mounts": cross})
		if res.Err != nil {
			t.Fatalf("%s", res.JSON)
		}
		var out listOut
		mustDo(t, json.Unmarshal(res.Envelope.Data, &out))
		got := map[string]entry{}
		for _, e := range out.Entries {
			got[e.Path] = e
		}
		_, tm := got["tm/inside.txt"]
		_, bd := got["bd/s.txt"]
		if tm != cross || bd != cross {
			t.Errorf("cross_mounts %v: inside the tmpfs listed %v, inside the bind mount %v: %s", cross, tm, bd, res.JSON)
		}
		if !cross && (!got["tm/"].MountPoint || !got["bd/"].MountPoint || len(res.Envelope.Warnings) == 0) {
			t.Errorf("the mount points should be marked and a warning given: %s", res.JSON)
		}

		res = runTool(t, list, map[string]any{"path": "tree", "depth": 0, "dir_sizes": true, "cross_mounts": cross})
		if res.Err != nil {
			t.Fatalf("%s", res.JSON)
		}
		mustDo(t, json.Unmarshal(res.Envelope.Data, &out))
		want := 2 // a.txt and sub/b.txt; with cross_mounts also inside.txt and s.txt
		if cross {
			want = 4
		}
		if out.DuFiles == nil || *out.DuFiles != want {
			t.Errorf("cross_mounts %v: du_files %v, want %d: %s", cross, deref(out.DuFiles), want, res.JSON)
		}
	}
}
