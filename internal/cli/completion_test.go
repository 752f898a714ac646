package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// complete runs the bash completion script on a command line (the last
// word is the one being completed) and returns what it offers.
func complete(t *testing.T, line ...string) []string {
	t.Helper()
	script := filepath.Join(t.TempDir(), "hostmcp.bash")
	if err := os.WriteFile(script, []byte(Bash()), 0o600); err != nil {
		t.Fatal(err)
	}
	var words []string
	for _, w := range line {
		words = append(words, "'"+strings.ReplaceAll(w, "'", `'\''`)+"'")
	}
	prog := `source "$1" && COMP_WORDS=(` + strings.Join(words, " ") + `) && COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) && _hostmcp && printf '%s\n' "${COMPREPLY[@]}"`
	cmd := exec.Command("bash", "--norc", "--noprofile", "-c", prog, "bash", script)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash completion of %q: %v\n%s", line, err, out)
	}
	return strings.Fields(string(out))
}

func TestBashCompletion(t *testing.T) {
	testutil.RequireBinary(t, "bash")
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "srvdir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		line []string
		want string // a word that must be offered
		not  string // a word that must not be
	}{
		{[]string{"hostmcp", "se"}, "serve", "tools"},
		{[]string{"hostmcp", "serve", "--to"}, "--token-file", "--json"},
		{[]string{"hostmcp", "serve", "--toolsets", "pe"}, "perf", "files"},
		{[]string{"hostmcp", "serve", "--toolsets", "files,pr"}, "files,proc", "proc"},
		{[]string{"hostmcp", "serve", "--log-level", ""}, "debug", "serve"},
		{[]string{"hostmcp", "completion", ""}, "zsh", "serve"},
		{[]string{"hostmcp", "call", "sys_snapshot", "--ro"}, "--root", "--http"},
		{[]string{"hostmcp", "serve", "--root", dir + "/sr"}, dir + "/srvdir", ""},
		{[]string{"hostmcp", "help", "tr"}, "triage", ""},
	} {
		got := complete(t, tc.line...)
		has := func(w string) bool {
			for _, g := range got {
				if g == w {
					return true
				}
			}
			return false
		}
		if !has(tc.want) || (tc.not != "" && has(tc.not)) {
			t.Errorf("completing %q: got %q, want %q and not %q", tc.line, got, tc.want, tc.not)
		}
	}
}

// zsh loads the script both ways it is installed: sourced, and autoloaded
// from $fpath by compinit; either way _hostmcp completes hostmcp. The two
// ways run side by side, each in a directory of its own: compinit spends
// seconds scanning every completion function on the machine.
func TestZshCompletionLoads(t *testing.T) {
	testutil.RequireBinary(t, "zsh")
	script := func(t *testing.T) string {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "_hostmcp"), []byte(Zsh()), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir
	}
	for name, prog := range map[string]string{
		"sourced":    `autoload -Uz compinit && compinit -u -d "$1/.zcompdump" && source "$1/_hostmcp" && print -r -- "$_comps[hostmcp]"`,
		"autoloaded": `fpath=("$1" $fpath) && autoload -Uz compinit && compinit -u -d "$1/.zcompdump" && print -r -- "$_comps[hostmcp]"`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := script(t)
			cmd := exec.Command("zsh", "-f", "-c", prog, "zsh", dir)
			cmd.Env = append(os.Environ(), "HOME="+dir)
			out, err := cmd.CombinedOutput()
			if err != nil || strings.TrimSpace(string(out)) != "_hostmcp" {
				t.Errorf("%v\n%s", err, out)
			}
		})
	}
	// The script parses as zsh (zsh -n reads without running).
	if out, err := exec.Command("zsh", "-n", filepath.Join(script(t), "_hostmcp")).CombinedOutput(); err != nil {
		t.Errorf("zsh -n: %v\n%s", err, out)
	}
}
