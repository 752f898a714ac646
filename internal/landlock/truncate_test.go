package landlock

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// restricted runs f on a thread of its own restricted to p by
// restrictThread with the given filter installer, as confined does.
func restricted(t *testing.T, p Policy, deny func() error, f func()) {
	t.Helper()
	if ABI() < 3 {
		testutil.Missing(t, "this test needs Landlock ABI 3 (the truncate right), the kernel has %d", ABI())
	}
	onRestrictedThread(t, func() error { return restrictThread(p, deny) }, f)
}

// truncations tries truncate(2) and open with O_TRUNC on path.
func truncations(path string) (truncate, openTrunc error) {
	truncate = unix.Truncate(path, 0)
	fd, openTrunc := unix.Open(path, unix.O_RDONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
	if openTrunc == nil {
		unix.Close(fd)
	}
	return truncate, openTrunc
}

// For a policy that grants truncation nowhere, the seccomp filter refuses
// it (EPERM); where the filter cannot be installed, Landlock still does
// (EACCES): never neither. A policy that grants it somewhere gets no
// filter, and Landlock decides as before.
func TestTruncationRefusedByFilterOrLandlock(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	const text = "some content\n"
	if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := func() error { return errors.New("no filter today") }
	mustNot := func() error { t.Error("a filter was installed for a policy that grants truncation"); return nil }
	for _, c := range []struct {
		name string
		pol  Policy
		deny func() error
		want error
	}{
		{"filter", Policy{Read: []*os.File{open(t, dir)}}, denyTruncation, unix.EPERM},
		{"no filter", Policy{Read: []*os.File{open(t, dir)}}, broken, unix.EACCES},
		{"read rule, no filter", Policy{Rules: []Rule{{open(t, dir), Read}}}, broken, unix.EACCES},
		{"write elsewhere", Policy{Read: []*os.File{open(t, dir)}, Rules: []Rule{{open(t, t.TempDir()), Write}}}, mustNot, unix.EACCES},
		{"write by path elsewhere", Policy{Read: []*os.File{open(t, dir)}, Paths: []PathRule{{t.TempDir(), Write}}}, mustNot, unix.EACCES},
	} {
		var truncate, openTrunc, read error
		restricted(t, c.pol, c.deny, func() {
			truncate, openTrunc = truncations(file)
			_, read = os.ReadFile(file)
		})
		if !errors.Is(truncate, c.want) || !errors.Is(openTrunc, c.want) || read != nil {
			t.Errorf("%s: truncate %v, open O_TRUNC %v, read %v; want %v, %v, nil", c.name, truncate, openTrunc, read, c.want, c.want)
		}
		if b, err := os.ReadFile(file); err != nil || string(b) != text {
			t.Fatalf("%s: the file is now %q %v", c.name, b, err)
		}
	}
}

// The ruleset leaves the truncate right out only when asked: that is the
// saving, a right no rule grants sends every open on a walk to the root.
func TestHandledTruncate(t *testing.T) {
	if handled(3, false, true).Handled_access_fs&unix.LANDLOCK_ACCESS_FS_TRUNCATE == 0 {
		t.Error("truncate not handled when asked to be")
	}
	if handled(7, false, false).Handled_access_fs&unix.LANDLOCK_ACCESS_FS_TRUNCATE != 0 {
		t.Error("truncate handled when the filter refuses it")
	}
}

// The filter only ever answers with an error number or lets a call
// through: a kill would take the server's thread with it before the fork.
func TestTruncateFilterNeverKills(t *testing.T) {
	tab, ok := nativeSyscalls()
	if !ok {
		t.Skip("no filter on this architecture") // Landlock keeps the right here
	}
	for i, ins := range truncateFilter(tab) {
		if ins.Code != unix.BPF_RET|unix.BPF_K {
			continue
		}
		if action := ins.K &^ unix.SECCOMP_RET_DATA; action != unix.SECCOMP_RET_ERRNO && action != unix.SECCOMP_RET_ALLOW {
			t.Errorf("instruction %d returns %#x", i, ins.K)
		}
	}
}
