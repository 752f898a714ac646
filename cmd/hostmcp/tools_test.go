package main

import (
	"os"
	"strings"
	"testing"
)

// Listing the tools runs none: it leaves the state directory as it found
// it, with no database and no work directories, and still says what an
// operator should know about the roots.
func TestToolsLeavesTheStateDirectoryAlone(t *testing.T) {
	state := t.TempDir()
	var out, errw strings.Builder
	code := run([]string{"tools", "--state-dir", state, "--root", t.TempDir(), "--root", "/sys/kernel:ro"}, strings.NewReader(""), &out, &errw)
	if code != 0 {
		t.Fatalf("tools: exit %d\n%s", code, errw.String())
	}
	if !strings.Contains(out.String(), "fs_read") {
		t.Errorf("tools does not list fs_read:\n%s", out.String())
	}
	if !strings.Contains(errw.String(), "root /sys/kernel (read-only) is in /sys") {
		t.Errorf("tools no longer warns about a root in /sys:\n%s", errw.String())
	}
	left, err := os.ReadDir(state)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range left {
		names = append(names, e.Name())
	}
	if len(names) != 0 {
		t.Errorf("tools left %v in the state directory", names)
	}
}
