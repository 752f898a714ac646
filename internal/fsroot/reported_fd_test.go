package fsroot

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// OpenFD admits and refuses what Open does, and gives the size of the very
// file opened, whose content the bare descriptor reads.
func TestReportedOpenFDIsOpenBare(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, "tree/a.txt", "secret.txt")
	if err := os.WriteFile(filepath.Join(root, "tree/empty"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(root, "secret.txt"), filepath.Join(root, "tree/file.lnk")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(root, "tree/fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	for rel, want := range map[string]string{"a.txt": "tree/a.txt\n", "empty": ""} {
		fd, size, err := r.OpenFD(rel)
		if err != nil {
			t.Fatalf("OpenFD(%q): %v", rel, err)
		}
		buf := make([]byte, 64)
		n, err := unix.Read(fd, buf)
		unix.Close(fd)
		if err != nil || string(buf[:n]) != want || size != int64(len(want)) {
			t.Errorf("OpenFD(%q): read %q (%v), size %d; want %q, size %d", rel, buf[:n], err, size, want, len(want))
		}
	}
	for _, rel := range []string{"file.lnk", "fifo", "../secret.txt", "missing.txt", ""} {
		if fd, _, err := r.OpenFD(rel); err == nil {
			unix.Close(fd)
			t.Errorf("OpenFD(%q) opened it", rel)
		} else if fd != -1 {
			t.Errorf("OpenFD(%q): %v with descriptor %d, want -1", rel, err, fd)
		}
	}
}
