package e2e

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/cli"
)

// versionLine is what `hostmcp version` prints: a semantic version, the
// commit ("unknown" for a test build, which the linker gives none) and the
// Go version.
var versionLine = regexp.MustCompile(`^hostmcp \d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)? \(commit ([0-9a-f]+|unknown)(, modified)?\) go1\.\d+\S* linux/\w+\n$`)

func runCLI(t *testing.T, args ...string) (string, int) {
	t.Helper()
	out, err := exec.Command(binary, args...).Output()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		t.Logf("stderr: %s", ee.Stderr)
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

func TestCLICall(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	out, code := runCLI(t, e.args("call", "sys_snapshot")...)
	var env envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 || !env.Success {
		t.Fatalf("call sys_snapshot: exit %d, %v\n%s", code, err, out)
	}
	out, code = runCLI(t, e.args("call", "sys_snapshot", `{"nope":true}`)...)
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 1 || env.Success || env.Error.Code != "INVALID_PARAMS" {
		t.Fatalf("a failing call must print its envelope and exit 1: exit %d\n%s", code, out)
	}
	if _, code = runCLI(t, e.args("call", "no_such_tool")...); code != 2 {
		t.Errorf("unknown tool: exit %d, want 2", code)
	}
}

func TestCLIToolsAndVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, "")
	out, code := runCLI(t, e.args("tools", "--json")...)
	var list []map[string]any
	if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 || len(list) < 3 {
		t.Fatalf("tools --json: exit %d, %v", code, err)
	}
	out, _ = runCLI(t, e.args("tools", "--markdown")...)
	if !strings.Contains(out, "### sys_snapshot") {
		t.Errorf("tools --markdown lacks sys_snapshot")
	}
	out, _ = runCLI(t, e.args("tools", "--read-only")...)
	if strings.Contains(out, "mutating") || strings.Contains(out, "destructive") {
		t.Errorf("--read-only still lists changing tools:\n%s", out)
	}
	out, code = runCLI(t, "version")
	if code != 0 || !versionLine.MatchString(out) {
		t.Errorf("version: %q exit %d, want a semantic version, the commit and the Go version", out, code)
	}
	out, code = runCLI(t, e.args("triage")...)
	if code != 0 || !strings.Contains(out, "CPU") || !strings.Contains(out, "Memory") {
		t.Errorf("triage: exit %d\n%s", code, out)
	}
}

func TestCLIRejectsUnknownConfigKey(t *testing.T) {
	e := newEnv(t, "[limits]\nouput_cap_bytes = 5\n")
	cmd := exec.Command(binary, e.args("tools")...)
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "ouput_cap_bytes") || !strings.Contains(string(out), ":2") {
		t.Errorf("unknown key must fail naming key and line, got %v:\n%s", err, out)
	}
}

// Start-up says what an operator should know about the roots: a root in
// the kernel's trees and a root given through a symbolic link are served,
// but each gets a warning on stderr.
func TestStartupWarnsAboutRoots(t *testing.T) {
	link := filepath.Join(t.TempDir(), "data")
	if err := os.Symlink(t.TempDir(), link); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "tools", "--state-dir", t.TempDir(), "--root", "/sys/kernel:ro", "--root", link)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("tools: %v\n%s", err, stderr.String())
	}
	for _, want := range []string{"root /sys/kernel (read-only) is in /sys", "root " + link + " is a symbolic link"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}

// Every command's --help, and help COMMAND, exit 0 and print its synopsis on
// stdout; hostmcp --help prints every synopsis.
func TestCLIHelp(t *testing.T) {
	t.Parallel()
	out, code := runCLI(t, "--help")
	if code != 0 {
		t.Errorf("hostmcp --help: exit %d", code)
	}
	for _, c := range cli.Commands() {
		if !strings.Contains(out, c.Synopsis()) {
			t.Errorf("hostmcp --help lacks %q", c.Synopsis())
		}
		for _, args := range [][]string{{c.Name, "--help"}, {c.Name, "-h"}, {"help", c.Name}} {
			got, code := runCLI(t, args...)
			if code != 0 || !strings.HasPrefix(got, "Usage: "+c.Synopsis()+"\n") {
				t.Errorf("hostmcp %s: exit %d\n%s", strings.Join(args, " "), code, got)
			}
		}
	}
	if _, code := runCLI(t, "serve", "--no-such-flag"); code != 2 {
		t.Errorf("an unknown flag: exit %d, want 2", code)
	}
}

// Flags are accepted after the positional arguments, as the usage of
// earlier versions showed them ("call TOOL [JSON] [common flags]").
func TestCLIFlagsAfterArguments(t *testing.T) {
	e := newEnv(t, "")
	args := append([]string{"call", "sys_snapshot", "{}"}, e.args("call")[1:]...)
	out, code := runCLI(t, args...)
	var env envelope
	if err := json.Unmarshal([]byte(out), &env); err != nil || code != 0 || !env.Success {
		t.Fatalf("hostmcp %s: exit %d, %v\n%s", strings.Join(args, " "), code, err, out)
	}
}

// config show prints TOML the server loads back, labelled by layer.
func TestCLIConfigShow(t *testing.T) {
	e := newEnv(t, "[limits]\nmax_timeout = \"2m\"\n")
	out, code := runCLI(t, e.args("config", "show", "--toolsets", "files")...)
	if code != 0 {
		t.Fatalf("config show: exit %d", code)
	}
	for _, want := range []string{"max_timeout = '2m0s'  # file " + e.config, "enabled = ['files']  # flag --toolsets", "default_timeout = '15s'  # default", "state_dir = '" + e.stateDir + "'  # flag --state-dir"} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("config show lacks %q:\n%s", want, out)
		}
	}
	shown := filepath.Join(t.TempDir(), "shown.toml")
	if err := os.WriteFile(shown, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, code := runCLI(t, "config", "show", "--config", shown); code != 0 {
		t.Errorf("config show's output does not load back: exit %d", code)
	}
	if _, code := runCLI(t, "config", "list"); code != 2 {
		t.Errorf("config list: exit %d, want 2", code)
	}
}
