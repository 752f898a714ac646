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

// readmeBlocks returns the ```sh blocks of a README section.
func readmeBlocks(t *testing.T, heading string) [][]string {
	t.Helper()
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	start := strings.Index(text, "\n"+heading+"\n")
	if start < 0 {
		t.Fatalf("README has no %q", heading)
	}
	text = text[start+len(heading)+2:]
	if end := strings.Index(text, "\n## "); end >= 0 {
		text = text[:end]
	}
	var blocks [][]string
	for _, m := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1) {
		var lines []string
		for _, l := range strings.Split(strings.TrimSpace(m[1]), "\n") {
			if l, _, _ = strings.Cut(l, "  #"); strings.TrimSpace(l) != "" {
				lines = append(lines, strings.TrimSpace(l))
			}
		}
		blocks = append(blocks, lines)
	}
	return blocks
}

// README's "Install as a service" works as written: its commands run, in
// order, on a copy of this machine (see machine), from a clone whose dist/
// holds the .deb make deb would build. make deb itself is checked by
// make -n (the test builds the same package from its own binary), and
// systemctl, with no systemd running, enables the unit as it does in a
// chroot. Purge then removes the enablement too.
func TestReadmeInstallAsAService(t *testing.T) {
	testutil.RequireBinary(t, "dpkg")
	testutil.RequireBinary(t, "systemctl")
	blocks := readmeBlocks(t, "## Install as a service")
	if len(blocks) < 2 {
		t.Fatalf("want the install block and the client block, got %d", len(blocks))
	}
	m := newMachine(t)
	deb := buildTestDeb(t)
	clone := filepath.Join(m.root, "clone")
	if err := os.MkdirAll(filepath.Join(clone, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(deb)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(clone, "dist", filepath.Base(deb)), data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, block := range blocks[:2] {
		env := ""
		for _, line := range block {
			switch {
			case line == "make deb":
				out, err := exec.Command("make", "-C", "..", "-n", "deb").CombinedOutput()
				if err != nil || !strings.Contains(string(out), "go run ./packaging deb -binary bin/hostmcp -out dist") {
					t.Errorf("make -n deb: %v\n%s", err, out)
				}
				continue
			case strings.HasPrefix(line, "export "):
				env += line + "\n" // for the lines after it
				continue
			}
			out, err := m.run("sh", "-ec", "cd /clone\n"+env+line)
			t.Logf("%s\n%s", line, out)
			if err != nil && strings.HasPrefix(line, "systemctl ") && strings.Contains(out, "not been booted with systemd") {
				continue // enabled (checked below); starting needs systemd running
			}
			if err != nil {
				t.Fatalf("README line failed: %s: %v\n%s", line, err, out)
			}
			if strings.Contains(line, "client-config") && !strings.Contains(out, "claude mcp add") {
				t.Errorf("client-config printed no snippet:\n%s", out)
			}
		}
	}
	wants := "/etc/systemd/system/multi-user.target.wants/hostmcp.service"
	if !m.exists(wants) {
		t.Errorf("systemctl enable left no %s", wants)
	}
	m.must(t, "dpkg", "--purge", "hostmcp")
	if m.exists(wants) {
		t.Errorf("purge left %s", wants)
	}
}
