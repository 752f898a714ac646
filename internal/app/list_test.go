package app

import (
	"context"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/server"
)

// listed is every served tool as a client sees it in tools/list.
func listed(t *testing.T, s *server.Server) []string {
	t.Helper()
	var out []string
	for _, d := range s.Tools() {
		b, err := json.Marshal(d.MCPTool())
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// The list `hostmcp tools` prints is the served list, though it is built
// without a store, roots or programs.
func TestToolListIsWhatOpenServes(t *testing.T) {
	cfg := config.Default(t.TempDir(), os.Getuid(), func(string) string { return "" })
	cfg.StateDir = t.TempDir()
	cfg.Toolsets.Enabled = []string{"files", "search", "edit", "proc", "repl", "system", "perf", "profile", "trace", "bpftrace", "stats", "onboarding"}
	a, err := Open(context.Background(), cfg, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	l, err := ToolList(cfg, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(listed(t, a.Server), listed(t, l)); diff != "" {
		t.Errorf("hostmcp tools lists (-served +listed):\n%s", diff)
	}
}
