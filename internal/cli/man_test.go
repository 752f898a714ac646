package cli

import (
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

var update = flag.Bool("update", false, "rewrite docs/hostmcp.1")

const manPath = "../../docs/hostmcp.1"

// docs/hostmcp.1, which make install installs, is Man of this release; a
// change to the command table must regenerate it (go test ./internal/cli
// -update).
func TestManPageIsCurrent(t *testing.T) {
	want := Man(buildinfo.Release)
	if *update {
		if err := os.WriteFile(manPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(manPath)
	if err != nil {
		t.Fatalf("%v (go test ./internal/cli -update writes it)", err)
	}
	if string(got) != want {
		t.Errorf("%s is stale: run go test ./internal/cli -update", manPath)
	}
}

// groff renders the page without a warning, and man shows every command
// and flag.
func TestManPageRenders(t *testing.T) {
	testutil.RequireBinary(t, "groff")
	cmd := exec.Command("groff", "-man", "-Tutf8", "-ww", "-z")
	cmd.Stdin = strings.NewReader(Man("1.2.3"))
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("groff: %v\n%s", err, out)
	}
	cmd = exec.Command("groff", "-man", "-Tutf8")
	cmd.Stdin = strings.NewReader(Man("1.2.3"))
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	// Strip overstriking (bold, underline) as man does for a pipe.
	text := stripOverstrike(string(out))
	for _, c := range Commands() {
		if !strings.Contains(text, c.Synopsis()) {
			t.Errorf("the man page lacks %q", c.Synopsis())
		}
		for _, f := range c.AllFlags() {
			if !strings.Contains(text, "--"+f.Name) {
				t.Errorf("the man page lacks --%s", f.Name)
			}
		}
	}
}

// stripOverstrike removes "x\bx" and "_\bx" sequences.
func stripOverstrike(s string) string {
	var b []rune
	for _, r := range s {
		if r == '\b' && len(b) > 0 {
			b = b[:len(b)-1]
			continue
		}
		b = append(b, r)
	}
	return string(b)
}
