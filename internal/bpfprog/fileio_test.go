package bpfprog

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// A slow call's file is named in full while its descriptor is open, and
// only when the descriptor still names a file of the recorded name.
func TestFDPaths(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("n", 80) // longer than the record keeps
	pid := uint32(os.Getpid())
	c := fdPaths{host: hostinfo.New(hostinfo.Roots{}), known: map[fdKey]string{}}
	for _, name := range []string{"data.db", long} {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		recorded := name[:min(len(name), len(ioRecord{}.Name)-1)]
		if got := c.lookup(pid, uint32(f.Fd()), recorded); got != path {
			t.Errorf("%.10s: got %q, want %q", name, got, path)
		}
	}
	f, err := os.Create(filepath.Join(dir, "other"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if got := c.lookup(pid, uint32(f.Fd()), "data.db"); got != "" {
		t.Errorf("a descriptor now naming another file gave %q", got)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	if got := c.lookup(pid, uint32(r.Fd()), "pipe"); got != "" {
		t.Errorf("a pipe gave %q", got)
	}
	if got := c.lookup(pid, 1<<20, "x"); got != "" {
		t.Errorf("a closed descriptor gave %q", got)
	}
}
