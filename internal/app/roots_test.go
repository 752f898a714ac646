package app

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// The roots are opened once at start-up and closed by Close: a server
// closed and opened again (tests, a reload) holds no descriptor on a root
// it no longer serves.
func TestCloseClosesTheRoots(t *testing.T) {
	root := t.TempDir()
	cfg := config.Default(root, os.Getuid(), func(string) string { return "" })
	cfg.StateDir = t.TempDir()
	a, err := Open(context.Background(), cfg, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := testutil.DescriptorsUnder(t, root); n == 0 {
		t.Fatalf("no descriptor on the root %s while the app is open", root)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if n := testutil.DescriptorsUnder(t, root); n != 0 {
		t.Errorf("%d descriptors still open on the root %s after Close", n, root)
	}
}

// A configured root that cannot be opened stops start-up with an error
// naming it, rather than being served as if it were not configured, and
// nothing is created in the state directory.
func TestOpenRefusesARootItCannotOpen(t *testing.T) {
	good, gone := t.TempDir(), filepath.Join(t.TempDir(), "gone")
	cfg := config.Default(good, os.Getuid(), func(string) string { return "" })
	cfg.StateDir = t.TempDir()
	// Validated at load, removed since: as when a mount goes away.
	cfg.Roots = append(cfg.Roots, config.Root{Path: gone})
	a, err := Open(context.Background(), cfg, "test", nil)
	if err == nil {
		a.Close()
		t.Fatalf("Open served %v without the root %s", cfg.Roots, gone)
	}
	if !strings.Contains(err.Error(), gone) {
		t.Errorf("error %q does not name the root %s", err, gone)
	}
	if left, _ := os.ReadDir(cfg.StateDir); len(left) != 0 {
		t.Errorf("a refused start-up left %d entries in the state directory", len(left))
	}
	if n := testutil.DescriptorsUnder(t, good); n != 0 {
		t.Errorf("a refused start-up left %d descriptors on the root %s", n, good)
	}
}
