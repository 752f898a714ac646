package search

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// goSrc is GOROOT/src, the tree the search benchmarks run over beside rg,
// which they need; without the go command they are skipped.
func goSrc(b *testing.B) string {
	b.Helper()
	testutil.RequireBinary(b, "rg")
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	return filepath.Join(strings.TrimSpace(string(out)), "src")
}
