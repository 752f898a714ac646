package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// RunWithHostmcp builds hostmcp once for a package's tests (static, as make
// build does, with extra go build flags), sets *binary to it, runs the
// tests and removes it; TestMain exits with what it returns. For packages
// where every test runs the binary (e2e); see Hostmcp for those where few do.
func RunWithHostmcp(m *testing.M, binary *string, flags ...string) int {
	h := &Hostmcp{Flags: flags}
	path, err := h.build()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		h.remove()
		return 1
	}
	*binary = path
	return h.Main(m)
}

// Hostmcp is hostmcp built for a package's tests on first use, at most
// once: a package where most tests need no binary (packaging, whose package
// builds `go test -short` skips) does not pay for a build it does not use.
// TestMain runs the tests through Main, which removes the build after them.
// The directory is reachable by every user: some tests run the server as
// nobody.
type Hostmcp struct {
	Flags []string // extra go build flags

	once      sync.Once
	dir, path string
	err       error
}

// Path builds hostmcp if no test has yet and returns its path; a failed
// build fails every test that asks.
func (h *Hostmcp) Path(t testing.TB) string {
	t.Helper()
	path, err := h.build()
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Main runs the package's tests, removes the build and returns the exit
// code for TestMain.
func (h *Hostmcp) Main(m *testing.M) int {
	defer h.remove()
	return m.Run()
}

func (h *Hostmcp) build() (string, error) {
	h.once.Do(func() {
		h.dir, h.err = os.MkdirTemp("", "hostmcp-bin-")
		if h.err != nil {
			return
		}
		if h.err = os.Chmod(h.dir, 0o755); h.err != nil {
			return
		}
		h.path = filepath.Join(h.dir, "hostmcp")
		args := append(append([]string{"build"}, h.Flags...), "-o", h.path, "github.com/hostmcp/hostmcp/cmd/hostmcp")
		build := exec.Command("go", args...)
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			h.err = fmt.Errorf("building hostmcp: %v\n%s", err, out)
		}
	})
	return h.path, h.err
}

func (h *Hostmcp) remove() {
	if h.dir != "" {
		os.RemoveAll(h.dir)
	}
}
