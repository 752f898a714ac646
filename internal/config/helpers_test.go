package config

import (
	"os"
	"path/filepath"
	"testing"
)

// envMap is an injected environment.
func envMap(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// tempDir is a fresh directory with symlinks resolved, so it compares
// equal to the roots Load resolves.
func tempDir(t *testing.T) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// writeFile writes content to dir/name with mode perm and returns the path.
func writeFile(t *testing.T, dir, name, content string, perm os.FileMode) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil { // WriteFile's mode passes through umask
		t.Fatal(err)
	}
	return p
}

// mkdirs creates each directory under base and returns base.
func mkdirs(t *testing.T, base string, dirs ...string) string {
	t.Helper()
	for _, d := range dirs {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return base
}
