package search

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// rg runs confined by Landlock: told to follow a link out of the root
// (which hostmcp never asks of it), it finds the text inside the root and
// cannot open the file outside, nor the directory holding it.
func TestRgCannotReadOutsideTheRoot(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	if landlock.ABI() == 0 {
		testutil.Missing(t, "%v", landlock.ErrUnsupported)
	}
	root, outside := t.TempDir(), t.TempDir()
	for dir, text := range map[string]string{root: "needle inside\n", outside: "needle outside\n"} {
		if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(outside, "f.txt"), filepath.Join(root, "file-link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(root, "dir-link")); err != nil {
		t.Fatal(err)
	}
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	if err != nil {
		t.Fatal(err)
	}
	defer roots.Close()
	loc, err := roots.Resolve(".")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := execx.New(&execx.Options{Allowed: []string{"rg"}})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	res, err := runRg(context.Background(), ex, loc, []string{"--no-config", "--follow", "--with-filename", "--regexp=needle"}, false, func(l []byte) bool {
		lines = append(lines, string(l))
		return true
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], "needle inside") {
		t.Fatalf("want only the file inside the root, got %q (stderr %q)", lines, res.Stderr)
	}
	// Unconfined, rg would have printed both links' "needle outside".
	if res.ExitCode != 2 || !strings.Contains(string(res.Stderr), "Permission denied") {
		t.Fatalf("rg should have been refused the links: exit %d, stderr %q", res.ExitCode, res.Stderr)
	}
}
