package tool

import (
	"encoding/json"
	"fmt"

	"github.com/google/jsonschema-go/jsonschema"
)

// Why a served tool's input schema can be let go until its first call. The
// inferred trees of the 51 tools' input schemas (jsonschema.Schema nodes,
// each of several hundred bytes) were about 0.45 MiB of an idle server's
// 1.8 MiB of live heap, held only to validate a first call that many tools
// never get: tools/list serves the JSON made at registration. Once a
// server's tools are registered, ReleaseInputSchema keeps the tree's JSON
// instead, and the first call reads it back (inputTree) before resolving
// it as before: what validation sees is the same schema, less its
// PropertyOrder, which orders only marshalled JSON (bench/RESULTS.md,
// "Idle memory: no regexp compiled at start-up, input schemas let go until
// the first call").

// ReleaseInputSchema lets InputSchema's tree go until the tool's first
// call, keeping its JSON. It is for a server whose tools are registered:
// no refinement follows, and nothing but calls reads InputSchema (nil
// until the first call reads it back). A schema already resolved, or one
// that cannot be marshalled, is kept.
func (d *Def) ReleaseInputSchema() {
	d.schemaMu.Lock()
	defer d.schemaMu.Unlock()
	if d.inputRead || d.InputSchema == nil {
		return
	}
	raw, err := json.Marshal(d.InputSchema)
	if err != nil {
		return
	}
	d.inputJSON, d.InputSchema = raw, nil
}

// inputTree is the input schema to resolve, read back from its JSON when
// it was released. From then on it is kept: the resolved schema holds it.
func (d *Def) inputTree() (*jsonschema.Schema, error) {
	d.schemaMu.Lock()
	defer d.schemaMu.Unlock()
	d.inputRead = true
	if d.InputSchema == nil && d.inputJSON != nil {
		s := new(jsonschema.Schema)
		if err := json.Unmarshal(d.inputJSON, s); err != nil {
			return nil, fmt.Errorf("tool %q: reading back the input schema: %w", d.Spec.Name, err)
		}
		d.InputSchema, d.inputJSON = s, nil
	}
	return d.InputSchema, nil
}
