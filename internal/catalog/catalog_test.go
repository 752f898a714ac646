package catalog

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

var update = flag.Bool("update", false, "rewrite docs/tools.md, testdata/toolsnaps and input_schemas.txt from the registry")

// all builds every toolset over throwaway dependencies, each tool serving
// its input schema as inference gives it, from which what is generated
// (docs, snapshots, input_schemas.txt) is written.
func all(t *testing.T) []tool.Toolset {
	t.Helper()
	return inferred(throwawayDeps(t))
}

// throwawayDeps are dependencies to build every toolset over, cleaned up
// with the test.
func throwawayDeps(t *testing.T) *Deps {
	t.Helper()
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "s.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	ex, err := execx.New(&execx.Options{Allowed: []string{"perf"}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := config.Default(t.TempDir(), os.Getuid(), func(string) string { return "" })
	return &Deps{Config: cfg, Store: st, Exec: ex, Host: hostinfo.New(hostinfo.Roots{})}
}

// TestToolSnapshots compares every tool's served definition with its
// snapshot, so a schema change is always a reviewed change.
func TestToolSnapshots(t *testing.T) {
	dir := filepath.Join("testdata", "toolsnaps")
	seen := map[string]bool{}
	for _, ts := range all(t) {
		for _, d := range ts.Tools {
			seen[d.Spec.Name+".json"] = true
			got, err := json.MarshalIndent(d.MCPTool(), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			path := filepath.Join(dir, d.Spec.Name+".json")
			if *update {
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Errorf("%s has no snapshot (run go test ./internal/catalog -update): %v", d.Spec.Name, err)
				continue
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("%s changed (-snapshot +now); run with -update if intended:\n%s", d.Spec.Name, diff)
			}
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if !seen[e.Name()] {
			t.Errorf("stale snapshot %s: no such tool", e.Name())
		}
	}
}

// TestToolsDoc keeps docs/tools.md equal to what the registry generates.
func TestToolsDoc(t *testing.T) {
	got := tool.Markdown(all(t))
	path := filepath.Join("..", "..", "docs", "tools.md")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("docs/tools.md missing (run go test ./internal/catalog -update): %v", err)
	}
	if string(want) != string(got) {
		t.Errorf("docs/tools.md is stale: run go test ./internal/catalog -update (or make docs)")
	}
}

// TestCatalogue checks the invariants every tool must keep and reports the
// size of the whole tools/list, which is paid in tokens on every session.
func TestCatalogue(t *testing.T) {
	names := map[string]bool{}
	var list []any
	for _, ts := range all(t) {
		if ts.Name == "" || ts.Description == "" || len(ts.Tools) == 0 {
			t.Errorf("toolset %+v is incomplete", ts.Name)
		}
		for _, d := range ts.Tools {
			if names[d.Spec.Name] {
				t.Errorf("tool %s defined twice", d.Spec.Name)
			}
			names[d.Spec.Name] = true
			// Schemas are resolved on first use: here is where a malformed
			// one (a default outside its range) fails.
			if err := d.Check(); err != nil {
				t.Error(err)
			}
			if len(d.Spec.Description) > 300 {
				t.Errorf("%s: description of %d characters; keep it to one or two sentences", d.Spec.Name, len(d.Spec.Description))
			}
			for p, s := range d.InputSchema().Properties {
				// A flag's name says what turning it on does; anything else
				// needs a description or at least its default.
				if s.Description == "" && s.Default == nil && s.Type != "boolean" {
					t.Errorf("%s: argument %s has neither a description nor a default", d.Spec.Name, p)
				}
			}
			list = append(list, d.MCPTool())
		}
	}
	b, _ := json.Marshal(map[string]any{"tools": list})
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	t.Logf("tools/list with every toolset: %d tools, %d bytes: %v", len(list), len(b), keys)
}
