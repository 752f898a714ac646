package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// make install puts the binary (linked with its commit), the man page, the
// example configuration and both completions under DESTDIR/PREFIX, and
// each works from there.
func TestMakeInstall(t *testing.T) {
	testutil.Slow(t, "make install builds hostmcp with its own flags")
	testutil.RequireBinary(t, "make")
	dest, bin := t.TempDir(), filepath.Join(t.TempDir(), "hostmcp")
	out, err := exec.Command("make", "-C", "..", "install", "DESTDIR="+dest, "PREFIX=/usr/local", "BIN="+bin).CombinedOutput()
	if err != nil {
		t.Fatalf("make install: %v\n%s", err, out)
	}
	root := filepath.Join(dest, "usr/local")
	for _, f := range []string{"bin/hostmcp", "share/man/man1/hostmcp.1", "share/doc/hostmcp/hostmcp.example.toml",
		"share/bash-completion/completions/hostmcp", "share/zsh/site-functions/_hostmcp"} {
		if _, err := os.Stat(filepath.Join(root, f)); err != nil {
			t.Errorf("make install left no %s: %v", f, err)
		}
	}
	v, err := exec.Command(filepath.Join(root, "bin/hostmcp"), "version").Output()
	if err != nil || !regexp.MustCompile(`^hostmcp \S+ \(commit [0-9a-f]{12}(, modified)?\) go`).Match(v) {
		t.Errorf("the installed binary's version does not name its commit: %q %v", v, err)
	}
	if testutil.RequireBinary(t, "man") != "" {
		page, err := exec.Command("man", "-l", filepath.Join(root, "share/man/man1/hostmcp.1")).Output()
		if err != nil || !strings.Contains(string(page), "hostmcp doctor") {
			t.Errorf("man -l of the installed page: %v", err)
		}
	}
}
