package search

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// mountFor mounts a tmpfs on dir until unmount is called or the test ends.
func mountFor(t *testing.T, dir string) (unmount func()) {
	t.Helper()
	testutil.RequireRoot(t)
	if err := unix.Mount("hostmcp-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=1m"); err != nil {
		t.Fatalf("mounting a tmpfs on %s: %v", dir, err)
	}
	unmount = func() {
		if err := unix.Unmount(dir, 0); err != nil && !errors.Is(err, unix.EINVAL) {
			t.Errorf("unmounting %s: %v", dir, err)
			_ = unix.Unmount(dir, unix.MNT_DETACH)
		}
	}
	t.Cleanup(unmount)
	return unmount
}

// The table is read once and kept while the kernel reports no change, and
// read again at the first use after a mount or an unmount.
func TestMountTableFollowsMounts(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "tm")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	at, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	tbl := &mountTable{}
	list := func() []string {
		t.Helper()
		ps, err := tbl.mountPoints()
		if err != nil {
			t.Fatal(err)
		}
		return ps
	}
	first := list()
	if slices.Contains(first, at) {
		t.Fatalf("%s listed before it was mounted", at)
	}
	if again := list(); unsafeSame(first, again) == false {
		t.Errorf("the table was read again with no mount changed")
	}
	unmount := mountFor(t, dir)
	if !slices.Contains(list(), at) {
		t.Errorf("%s not listed once mounted", at)
	}
	unmount()
	if slices.Contains(list(), at) {
		t.Errorf("%s still listed once unmounted", at)
	}
}

// unsafeSame reports whether two lists are the same one, not equal copies.
func unsafeSame(a, b []string) bool {
	return len(a) > 0 && len(a) == len(b) && &a[0] == &b[0]
}

// rg searches one after the other on the same toolset: a tmpfs mounted
// between two of them is left out and named by the next one, and once it
// is gone the next one neither warns nor misses its directory.
func TestContentRgWarnsOfMountsMadeBetweenCalls(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	testutil.RequireRoot(t)
	dir := t.TempDir()
	tm := filepath.Join(dir, "tm")
	if err := os.Mkdir(tm, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "top.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	content := setOver(t, dir).content()
	search := func() (paths []string, warned bool) {
		t.Helper()
		res := runEnvelope(t, content, map[string]any{"pattern": "needle", "engine": "rg"})
		var out contentOut
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
			t.Fatal(err)
		}
		for _, h := range out.Hits {
			paths = append(paths, h.Path)
		}
		return paths, strings.Contains(strings.Join(res.Envelope.Warnings, "\n"), `"tm"`)
	}
	if paths, warned := search(); warned || !slices.Equal(paths, []string{"top.txt"}) {
		t.Fatalf("before the mount: hits %q, warned %v", paths, warned)
	}
	unmount := mountFor(t, tm)
	if err := os.WriteFile(filepath.Join(tm, "inside.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if paths, warned := search(); !warned || !slices.Equal(paths, []string{"top.txt"}) {
		t.Errorf("with tm mounted: hits %q, warned %v; want only top.txt and a warning naming tm", paths, warned)
	}
	unmount()
	if err := os.WriteFile(filepath.Join(tm, "under.txt"), []byte("needle\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if paths, warned := search(); warned || !slices.Equal(paths, []string{"tm/under.txt", "top.txt"}) {
		t.Errorf("after the unmount: hits %q, warned %v; want both files and no warning", paths, warned)
	}
}
