package hostinfo

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// A file deleted while this test holds it open is found on its file
// system, with this process named as its holder.
func TestFindDeletedOpen(t *testing.T) {
	t.Parallel()
	f, err := os.CreateTemp(t.TempDir(), "held-")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(make([]byte, 16<<20)); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(f.Name()); err != nil {
		t.Fatal(err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		t.Fatal(err)
	}
	dev := fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
	got := New(Roots{}).FindDeletedOpen([]string{dev}, 5*time.Second)[dev]
	me := fmt.Sprintf("pid %d (%s) %s (deleted)", os.Getpid(), New(Roots{}).comm(os.Getpid()), f.Name())
	if got == nil || got.Files < 1 || got.Bytes < 16<<20 || got.Partial || len(got.Holders) == 0 || !strings.HasPrefix(got.Holders[0], me) {
		t.Fatalf("deleted open files on %s: %+v; want %q first", dev, got, me)
	}
}
