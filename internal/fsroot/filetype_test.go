package fsroot

import (
	"net"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// Each kind of file the kernel makes is told apart, from an lstat and from
// a raw st_mode alike, and named in each register as its tools answer.
func TestFileTypeNames(t *testing.T) {
	dir := t.TempDir()
	mk := func(name string, make func(string) error) string {
		p := filepath.Join(dir, name)
		if err := make(p); err != nil {
			t.Fatal(err)
		}
		return p
	}
	sock, err := net.Listen("unix", filepath.Join(dir, "sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer sock.Close()
	for _, tc := range []struct {
		path               string
		want               FileType
		word, noun, phrase string
	}{
		{mk("file", func(p string) error { return os.WriteFile(p, nil, 0o600) }), RegularFile, "file", "file", "a regular file"},
		{mk("dir", func(p string) error { return os.Mkdir(p, 0o700) }), Directory, "dir", "directory", "a directory"},
		{mk("link", func(p string) error { return os.Symlink("file", p) }), Symlink, "symlink", "other", "a symbolic link"},
		{mk("fifo", func(p string) error { return syscall.Mkfifo(p, 0o600) }), FIFO, "fifo", "pipe", "a FIFO"},
		{filepath.Join(dir, "sock"), Socket, "socket", "socket", "a socket"},
		{"/dev/null", CharDevice, "device", "char device", "a character device"},
	} {
		t.Run(tc.word, func(t *testing.T) {
			fi, err := os.Lstat(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			var st syscall.Stat_t
			if err := syscall.Lstat(tc.path, &st); err != nil {
				t.Fatal(err)
			}
			if got := TypeOf(fi.Mode()); got != tc.want {
				t.Errorf("TypeOf(%v) = %d, want %d", fi.Mode(), got, tc.want)
			}
			got := TypeOfStat(st.Mode)
			if got != tc.want {
				t.Errorf("TypeOfStat(%o) = %d, want %d", st.Mode, got, tc.want)
			}
			if got.Word() != tc.word || got.Noun() != tc.noun || got.Phrase() != tc.phrase {
				t.Errorf("names %q %q %q, want %q %q %q", got.Word(), got.Noun(), got.Phrase(), tc.word, tc.noun, tc.phrase)
			}
		})
	}
	if got := TypeOfStat(syscall.S_IFBLK | 0o660); got != BlockDevice || got.Word() != "device" || got.Noun() != "block device" {
		t.Errorf("a block device's st_mode: %d %q %q", got, got.Word(), got.Noun())
	}
}
