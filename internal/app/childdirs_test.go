package app

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The children's directories are made private, a looser one is tightened,
// and one that is a symlink (to somewhere outside the state directory) is
// refused rather than followed.
func TestMakeChildDirs(t *testing.T) {
	state := t.TempDir()
	d, err := makeChildDirs(state)
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{d.Home, d.Tmp} {
		if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
			t.Fatalf("%s: %v %v, want a 0700 directory", dir, fi, err)
		}
		if filepath.Dir(dir) != state {
			t.Errorf("%s is not in the state directory %s", dir, state)
		}
	}
	if err := os.Chmod(d.Home, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := makeChildDirs(state); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(d.Home); fi.Mode().Perm() != 0o700 {
		t.Errorf("home left at %v", fi.Mode().Perm())
	}

	elsewhere := t.TempDir()
	if err := os.Remove(d.Tmp); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, d.Tmp); err != nil {
		t.Fatal(err)
	}
	if _, err := makeChildDirs(state); err == nil {
		t.Error("a tmp that is a symlink out of the state directory was accepted")
	}
}

// Sweeping removes work files older than staleWork, whole directories
// included, and keeps newer ones.
func TestSweepTmp(t *testing.T) {
	d, err := makeChildDirs(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	old, recent := filepath.Join(d.Tmp, "profile-old"), filepath.Join(d.Tmp, "profile-new")
	for _, dir := range []string{old, recent} {
		if err := os.Mkdir(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "perf.data"), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	now := time.Now()
	past := now.Add(-staleWork - time.Minute)
	if err := os.Chtimes(old, past, past); err != nil {
		t.Fatal(err)
	}
	if err := d.sweepTmp(now); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("stale %s kept: %v", old, err)
	}
	if _, err := os.Stat(filepath.Join(recent, "perf.data")); err != nil {
		t.Errorf("recent work removed: %v", err)
	}
}
