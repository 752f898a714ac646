package edit

import (
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// On 250 generated cases (the first 40 under -short), wherever GNU patch applies a diff cleanly (exit 0,
// possibly with an offset or fuzz), fs_apply_diff gives the same bytes. The
// target is the diff's old version, or that version changed elsewhere so
// hunks land at other lines, with or without wrong header line numbers.
func TestApplyDiffMatchesGNUPatch(t *testing.T) {
	testutil.RequireBinary(t, "patch")
	testutil.RequireBinary(t, "diff")
	r := rand.New(rand.NewPCG(5, 6))
	cases := testutil.Cases(250, 40) // 40: ten of each of the four kinds below
	clean, offset := 0, 0
	for i := range cases {
		old := randomText(r, 30+r.IntN(150))
		d := unifiedDiff(t, "f.txt", old, randomEdit(r, old))
		target := old
		switch i % 4 {
		case 1: // lines added at the top: every hunk moves down
			target = randomText(r, 1+r.IntN(20)) + old
		case 2: // wrong header numbers
			d = shiftHeaders(r, d, 30)
		case 3: // edited elsewhere: may conflict, then patch fails and so may we
			target = randomEdit(r, old)
		}
		gnuDir, ourDir := t.TempDir(), t.TempDir()
		must(t, os.WriteFile(filepath.Join(gnuDir, "f.txt"), []byte(target), 0o644))
		must(t, os.WriteFile(filepath.Join(ourDir, "f.txt"), []byte(target), 0o644))
		must(t, os.WriteFile(filepath.Join(gnuDir, "d.diff"), []byte(d), 0o644))
		cmd := exec.Command("patch", "-p1", "--batch", "--forward", "--no-backup-if-mismatch", "--reject-file=-", "-i", "d.diff")
		cmd.Dir = gnuDir
		out, err := cmd.CombinedOutput()
		if err != nil {
			continue // patch did not apply it cleanly: nothing to compare
		}
		clean++
		if strings.Contains(string(out), "offset") || strings.Contains(string(out), "fuzz") {
			offset++
		}
		want, _ := os.ReadFile(filepath.Join(gnuDir, "f.txt"))
		if _, terr := applyDiff(t, newSet(t, ourDir), d, false); terr != nil {
			t.Fatalf("case %d: patch applied it (%s) but fs_apply_diff: %s: %s\n%s", i, strings.TrimSpace(string(out)), terr.Code, terr.Message, d)
		}
		if got, _ := os.ReadFile(filepath.Join(ourDir, "f.txt")); string(got) != string(want) {
			t.Fatalf("case %d: bytes differ from GNU patch's (%s)\ngot  %q\nwant %q\n%s", i, strings.TrimSpace(string(out)), got, want, d)
		}
	}
	t.Logf("%d of %d cases applied cleanly by GNU patch (%d with offset or fuzz), all with the same bytes", clean, cases, offset)
	if clean < cases*4/5 {
		t.Fatalf("only %d of %d cases applied cleanly by patch; the comparison needs at least four in five", clean, cases)
	}
}
