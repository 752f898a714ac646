package catalog

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

const regenerateInputSchemas = "go test ./internal/catalog -run TestGeneratedInputSchemas -update"

// TestGeneratedInputSchemas keeps input_schemas.txt equal to what
// inference gives for every tool of the catalogue, line for line, and
// checks that Toolsets serves it: every tool's tools/list entry the same
// bytes as with its schema marshalled from inference.
func TestGeneratedInputSchemas(t *testing.T) {
	sets := all(t)
	var want strings.Builder
	for _, ts := range sets {
		for _, d := range ts.Tools {
			want.WriteString(d.Spec.Name + "\t" + string(d.ServedInputFromTree()) + "\n")
		}
	}
	if *update {
		if err := os.WriteFile("input_schemas.txt", []byte(want.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return // the binary embeds the file as it was: served alike from the next run on
	}
	if got := inputSchemas; got != want.String() {
		t.Errorf("input_schemas.txt is stale (%s): regenerate it with %s", staleLines(got, want.String()), regenerateInputSchemas)
	}
	served := Toolsets(throwawayDeps(t))
	for i, ts := range sets {
		for j, d := range ts.Tools {
			s := served[i].Tools[j]
			if a, b := mcpJSON(t, d), mcpJSON(t, s); !bytes.Equal(a, b) {
				t.Errorf("%s: served %s, inference gives %s", d.Spec.Name, b, a)
			}
		}
	}
}

// staleLines names the tools whose lines differ between the generated
// file got and what inference gives, want.
func staleLines(got, want string) string {
	lines := func(s string) map[string]string {
		m := map[string]string{}
		for line := range strings.Lines(s) {
			name, _, _ := strings.Cut(line, "\t")
			m[name] = line
		}
		return m
	}
	g, w := lines(got), lines(want)
	var names []string
	for name, line := range w {
		if g[name] != line {
			names = append(names, name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			names = append(names, name+" (no such tool)")
		}
	}
	if len(names) == 0 {
		return "its order"
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func mcpJSON(t *testing.T, d *tool.Def) []byte {
	t.Helper()
	b, err := json.Marshal(d.MCPTool())
	if err != nil {
		t.Fatal(err)
	}
	return b
}
