package files

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// du -sx --block-size=1 of one directory, the yardstick for dir_sizes.
func duBytes(t *testing.T, dir string) int64 {
	t.Helper()
	out, err := exec.Command("du", "-sx", "--block-size=1", dir).Output()
	if err != nil {
		t.Fatalf("du %s: %v", dir, err)
	}
	n, err := strconv.ParseInt(strings.Fields(string(out))[0], 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// dir_sizes totals each listed directory as du -x does (hidden files in,
// a hard link once, a sparse file by what it holds, symlinks not
// followed), and sort size puts the largest first.
func TestListDirSizes(t *testing.T) {
	testutil.RequireBinary(t, "du")
	root := t.TempDir()
	outside := t.TempDir()
	write := func(p string, n int) {
		t.Helper()
		full := filepath.Join(root, p)
		mustDo(t, os.MkdirAll(filepath.Dir(full), 0o755))
		mustDo(t, os.WriteFile(full, make([]byte, n), 0o644))
	}
	write("big/a.bin", 300_000)
	write("big/deep/er/b.bin", 200_000)
	write("big/.cache/c.bin", 100_000) // hidden: counted, not listed
	write("small/d.txt", 10)
	write("top.bin", 50_000)
	mustDo(t, os.Link(filepath.Join(root, "big/a.bin"), filepath.Join(root, "big/a-link.bin")))
	sparse, err := os.Create(filepath.Join(root, "small/sparse"))
	mustDo(t, err)
	mustDo(t, sparse.Truncate(1<<30))
	sparse.Close()
	mustDo(t, os.WriteFile(filepath.Join(outside, "huge.bin"), make([]byte, 1<<20), 0o644))
	mustDo(t, os.Symlink(outside, filepath.Join(root, "out")))

	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	mustDo(t, err)
	defer roots.Close()
	list := New(&Deps{Roots: roots}).list()
	raw, _ := json.Marshal(map[string]any{"path": ".", "depth": 1, "dir_sizes": true, "sort": "size"})
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: list, Args: raw})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var out listOut
	mustDo(t, json.Unmarshal(res.Envelope.Data, &out))

	if out.DuBytes == nil || *out.DuBytes != duBytes(t, root) || *out.DuFiles != 6 {
		t.Fatalf("the root's total: %v bytes, %v files; du says %d bytes (6 files; the hard link is one)", deref(out.DuBytes), deref(out.DuFiles), duBytes(t, root))
	}
	got := map[string]entry{}
	var order []string
	for _, e := range out.Entries {
		got[e.Path] = e
		order = append(order, e.Path)
	}
	for _, d := range []string{"big", "big/deep", "small"} {
		e := got[d+"/"]
		if e.DuBytes == nil || *e.DuBytes != duBytes(t, filepath.Join(root, d)) {
			t.Errorf("%s: du_bytes %v, du says %d", d, deref(e.DuBytes), duBytes(t, filepath.Join(root, d)))
		}
	}
	if *got["big/"].DuFiles != 3 || *got["big/deep/"].DuFiles != 1 || *got["small/"].DuFiles != 2 {
		t.Errorf("file counts: big %d, big/deep %d, small %d", *got["big/"].DuFiles, *got["big/deep/"].DuFiles, *got["small/"].DuFiles)
	}
	if _, ok := got["big/.cache/"]; ok {
		t.Errorf("a hidden directory was listed: %v", order)
	}
	if e := got["out"]; e.Type != "symlink" || e.DuBytes == nil || *e.DuBytes >= 1<<20 {
		t.Errorf("the link to the outside: %+v", e)
	}
	if sp := got["small/sparse"]; sp.SizeBytes == nil || *sp.SizeBytes != 1<<30 || *sp.DuBytes > 1<<20 {
		t.Errorf("the sparse file: size %v, du %d", deref(sp.SizeBytes), *sp.DuBytes)
	}
	if len(order) < 3 || order[0] != "big/" || order[1] != "big/a-link.bin" && order[1] != "big/a.bin" {
		t.Errorf("largest first: %v", order)
	}

	// Too close to the deadline to walk: sizes come back as lower bounds
	// rather than as a timeout.
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	res = (&tool.Runner{}).Run(ctx, tool.Invocation{Def: list, Args: raw})
	if res.Err != nil {
		t.Fatal(res.Err)
	}
	var partial listOut
	mustDo(t, json.Unmarshal(res.Envelope.Data, &partial))
	if !partial.SizesPartial || len(res.Envelope.Warnings) == 0 {
		t.Errorf("a walk out of time: %s", res.JSON)
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return nil
	}
	return *p
}
