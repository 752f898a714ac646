package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A journal in the state directory that names a file outside the roots is
// not acted on: start-up logs a warning, keeps the journal, and serves.
func TestStartupIgnoresAJournalOutsideTheRoots(t *testing.T) {
	e := newEnv(t, "")
	outside := t.TempDir()
	victim := filepath.Join(outside, "victim.txt")
	if err := os.WriteFile(victim, []byte("keep me\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	kept := filepath.Join(outside, ".hostmcp-tmp-victim.txt-0123456789abcdef-0o")
	if err := os.WriteFile(kept, []byte("not hostmcp's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sha := strings.Repeat("ab", 32)
	journal := filepath.Join(e.stateDir, "journal", "0123456789abcdef.journal")
	text := `{"version":1,"id":"0123456789abcdef","entries":[{"root":"` + outside + `","root_dev":1,"root_ino":2,"rel":"victim.txt","remove":true,"kept":".hostmcp-tmp-victim.txt-0123456789abcdef-0o","old_sha256":"` + sha + `"}]}` + "\n" + `{"mark":"commit"}` + "\n"
	if err := os.MkdirAll(filepath.Dir(journal), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(journal, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, e)
	srv.cs.Close()
	if lines := srv.log.matching("ignored the journal"); len(lines) != 1 || !strings.Contains(lines[0], "outside the configured roots") {
		t.Errorf("start-up log: %q", srv.log.matching(""))
	}
	for _, p := range []string{victim, kept, journal} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}
