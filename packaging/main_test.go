package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// binary is hostmcp, built once for the package's tests as make build
// builds it (static).
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "hostmcp-packaging-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if err := os.Chmod(dir, 0o755); err != nil { // nobody runs it in a test
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "hostmcp")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", binary, "github.com/hostmcp/hostmcp/cmd/hostmcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building hostmcp: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
