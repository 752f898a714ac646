package catalog

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// inputSchemas is every tool's input schema as tools/list serves it,
// generated from inference (tool.Def.ServedInputFromTree) by
// `go test ./internal/catalog -run TestGeneratedInputSchemas -update`:
// one line a tool, its name, a tab, and the JSON. Serving it spares every
// start-up the inference and marshalling of 51 schemas (tool/inputtree.go
// says why); TestGeneratedInputSchemas fails when it differs from what
// inference gives.
//
//go:embed input_schemas.txt
var inputSchemas string

// serveGeneratedInputs has every tool of sets that inputSchemas lists
// serve its line; one it does not list (the file is stale, which
// TestGeneratedInputSchemas reports) serves its schema marshalled from
// inference.
func serveGeneratedInputs(sets []tool.Toolset) {
	generated := map[string]string{}
	for line := range strings.Lines(inputSchemas) {
		if name, schema, ok := strings.Cut(strings.TrimSuffix(line, "\n"), "\t"); ok {
			generated[name] = schema
		}
	}
	for _, ts := range sets {
		for _, d := range ts.Tools {
			if schema, ok := generated[d.Spec.Name]; ok {
				d.ServeInput(json.RawMessage(schema))
			}
		}
	}
}
