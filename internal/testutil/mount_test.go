package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A mount the test moved (by renaming a directory above it) is still
// undone at cleanup.
func TestMountCleanupFindsAMovedMount(t *testing.T) {
	RequireRoot(t)
	base := t.TempDir()
	for _, d := range []string{"a/tm", "a/bd", "src"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("mount and move", func(t *testing.T) {
		MountTmpfs(t, filepath.Join(base, "a/tm"))
		BindMount(t, filepath.Join(base, "src"), filepath.Join(base, "a/bd"))
		if err := os.Rename(filepath.Join(base, "a"), filepath.Join(base, "b")); err != nil {
			t.Fatal(err)
		}
	})
	info, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(info), base) {
		t.Fatalf("a mount below %s outlived its test:\n%s", base, info)
	}
}
