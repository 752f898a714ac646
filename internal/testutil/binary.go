package testutil

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// RunWithHostmcp builds hostmcp once for a package's tests (static, as make
// build does, with extra go build flags), sets *binary to it, runs the
// tests and removes it; TestMain exits with what it returns. The directory
// is reachable by every user: some tests run the server as nobody.
func RunWithHostmcp(m *testing.M, binary *string, flags ...string) int {
	dir, err := os.MkdirTemp("", "hostmcp-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	*binary = filepath.Join(dir, "hostmcp")
	args := append(append([]string{"build"}, flags...), "-o", *binary, "github.com/hostmcp/hostmcp/cmd/hostmcp")
	build := exec.Command("go", args...)
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building hostmcp: %v\n%s", err, out)
		return 1
	}
	return m.Run()
}
