package bpftrace

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// copyFile copies src to dst with mode.
func copyFile(t *testing.T, src, dst string, mode os.FileMode) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_EXCL, mode)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		t.Fatal(err)
	}
	if err := out.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dst, mode); err != nil { // past the umask
		t.Fatal(err)
	}
}

// findLibc is the C library's path on this machine.
func findLibc(t *testing.T) string {
	t.Helper()
	for _, pattern := range []string{"/lib/*/libc.so.6", "/usr/lib/*/libc.so.6", "/lib64/libc.so.6", "/usr/lib64/libc.so.6"} {
		if m, _ := filepath.Glob(pattern); len(m) > 0 {
			return m[0]
		}
	}
	t.Fatal("no libc.so.6 on this machine")
	return ""
}

// A file is judged as the kernel finds it: a shell by inode however it is
// reached, a library by its ELF headers, another user's program by owner
// and set-id bits; a copy of a shell is not the shell (a uprobe on it
// traces only who runs the copy).
func TestJudgeTargets(t *testing.T) {
	bash := "/usr/bin/bash"
	testutil.RequireFile(t, bash)
	dir := t.TempDir()
	join := func(n string) string { return filepath.Join(dir, n) }
	if err := os.Symlink(bash, join("link-to-bash")); err != nil {
		t.Fatal(err)
	}
	copyFile(t, bash, join("bash-copy"), 0o755)
	copyFile(t, bash, join("setuid-copy"), os.ModeSetuid|0o755)
	copyFile(t, bash, join("setgid-copy"), os.ModeSetgid|0o755)
	copyFile(t, bash, join("listed-shell"), 0o755)
	if err := os.WriteFile(join("notelf"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(join("fifo"), 0o600); err != nil {
		t.Fatal(err)
	}
	shells := join("shells")
	if err := os.WriteFile(shells, []byte("# comment\n"+join("listed-shell")+"\n/nonexistent/shell\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	hardLinked := os.Link(bash, join("hard-link-to-bash")) == nil // same file system as /usr here; not everywhere

	p := loadTargetPolicy(shells, os.Geteuid())
	for _, tc := range []struct {
		name, path string
		want       []sensitivity
	}{
		{"the shell", bash, []sensitivity{shellTarget}},
		{"a symlink to it", join("link-to-bash"), []sensitivity{shellTarget}},
		{"the merged-usr spelling", "/bin/bash", []sensitivity{shellTarget}},
		{"a copy", join("bash-copy"), nil},
		{"listed in the shells file", join("listed-shell"), []sensitivity{shellTarget}},
		{"setuid", join("setuid-copy"), []sensitivity{setIDTarget}},
		{"setgid", join("setgid-copy"), []sensitivity{setIDTarget}},
		{"libc", findLibc(t), []sensitivity{libraryTarget}},
		{"this test's own program", os.Args[0], nil},
		{"not ELF", join("notelf"), nil},
		{"a fifo", join("fifo"), nil},
		{"a directory", dir, nil},
		{"nothing there", join("missing"), nil},
		{"through a file", join("notelf") + "/x", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _, err := p.judge(tc.path)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(got, tc.want, cmp.AllowUnexported(sensitivity{})); diff != "" {
				t.Fatalf("(-got +want):\n%s", diff)
			}
		})
	}
	if hardLinked {
		if got, shell, _ := p.judge(join("hard-link-to-bash")); len(got) != 1 || got[0] != shellTarget || shell == "" {
			t.Fatalf("a hard link to bash: %v %q", got, shell)
		}
	}

	// Owned by a user the policy does not trust: another user's program.
	stranger := targetPolicy{owners: map[uint32]bool{0x7fff_fff0: true}, shells: p.shells}
	if got, _, err := stranger.judge(join("bash-copy")); err != nil || len(got) != 1 || got[0] != othersTarget {
		t.Fatalf("another user's program: %v %v", got, err)
	}
}

// A path the kernel refuses to open for any reason but absence is an
// error, not "nothing there": the probe is refused rather than let through
// unchecked.
func TestJudgeUnreadableIsAnError(t *testing.T) {
	p := targetPolicy{owners: map[uint32]bool{0: true}, shells: map[fileID]string{}}
	_, _, err := p.judge(string([]byte{'/', 0}))
	if err == nil || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("got %v", err)
	}
}
