package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/hostmcp/hostmcp/internal/config"
)

// Spec describes a tool for the model: written for someone who has never seen
// the project, one or two sentences, with units, defaults and limits in the
// schema rather than the description.
type Spec struct {
	Name        string
	Title       string
	Description string
	// Kind is required: it sets all five annotations.
	Kind Kind
	// OpenWorld marks a tool that reaches beyond this host (the fleet
	// tools ask Prometheus and other hosts' hostmcp), so openWorldHint
	// says so; every other tool works on this host alone.
	OpenWorld bool
	// Idempotent marks a mutating or destructive tool whose repeat has no
	// further effect (fs_mkdirs); read-only tools are always idempotent.
	Idempotent bool
	// Timeout is the tool's default time limit (spec 000 section 4.1 by
	// category); the configuration may override it per tool.
	Timeout time.Duration
	// OutputCap overrides the configured default output cap in bytes, for
	// tools whose answer is legitimately large (profiles).
	OutputCap int
	// Programs marks a tool whose calls start programs: a child process
	// (rg, perf, bpftrace, git, journalctl) or eBPF programs in the kernel.
	// Such calls also take a slot of the lower limit on them ([load]
	// max_program_calls) before they run, and are refused BUSY rather than
	// half started. A child started by a call without it still takes a slot,
	// in execx, for as long as it runs; eBPF programs have no such net.
	Programs bool
	// OffByDefault withholds a sensitive tool (sys_logs) unless the operator
	// enables it with [tools.<name>] enabled = true.
	OffByDefault bool
	// View is the ui:// page that draws this tool's results (view.URI) in
	// clients that render MCP Apps; the server points to it from the tool
	// for those clients only. Its results are the same for every client.
	View string
	// Facts declares what every call of a tool that changes the host works
	// out before it changes anything (its Preview), for the conditions of
	// [confirm]; a tool that has them is planned (see confirm.go). A
	// planned tool with none gives an empty, non-nil list.
	Facts []Fact
}

// Handler is a typed tool handler. It returns a *Error for failures the agent
// should see; any other error is reported as INTERNAL.
type Handler[In, Out any] func(ctx context.Context, call *Call, in In) (Out, error)

// Def is a tool definition bound to its handler, ready to be served.
//
// Its schemas are built on first use, not when the tool is: the input
// schema's tree (inputtree.go) when a call is validated or a test or the
// docs read it, the full output schema (which only docs/tools.md and tests
// read) likewise. Built for every tool at start-up they were most of the
// time to the initialize answer, and most of its memory. Check builds and
// resolves both at once; the catalogue test runs it on every tool, so a
// malformed schema still fails the build.
type Def struct {
	Spec Spec
	// tree is the input schema: inferred from the Go type, then
	// refined (refinements, in the order the With methods were called),
	// on first use.
	tree        func() *jsonschema.Schema
	refinements []func(*jsonschema.Schema)
	built       atomic.Bool
	// generatedInput is the input schema's JSON as tools/list serves it,
	// when it was generated at build time (ServeInput); nil marshals it
	// from the tree.
	generatedInput json.RawMessage
	// input is the input schema resolved for validation, on first use.
	input func() (*jsonschema.Resolved, error)
	// output is the full output schema (the envelope with the tool's data
	// fields), on first use.
	output     func() (*jsonschema.Schema, error)
	invoke     func(ctx context.Context, call *Call, raw json.RawMessage) (any, error)
	preflight  Preflight // see Guard
	aliases    []alias
	exactlyOne [][]string
}

// validName reports whether name matches ^[a-z][a-z0-9_]{0,63}$, the
// pattern a fact's name has too: config.ValidName checks it by hand.
func validName(name string) bool { return config.ValidName(name) }

// ValidName reports whether name is one a tool may have: fleet_call
// checks the names it passes on to other hosts with it.
func ValidName(name string) bool { return validName(name) }

// New binds a handler to its spec. Its schemas are inferred from the Go
// types on first use (Def). It panics on a malformed definition: that is a
// programming error, caught by the registry test that builds every
// toolset; a malformed schema panics when it is built, which that test
// does for every tool (Check). Only the decoding of a call's arguments is
// generic: the rest, written once for every tool (newDef), works from the
// types' reflection.
func New[In, Out any](spec Spec, h Handler[In, Out]) *Def {
	d := newDef(spec, reflect.TypeFor[In](), reflect.TypeFor[Out]())
	d.invoke = func(ctx context.Context, call *Call, raw json.RawMessage) (any, error) {
		var args In
		if err := d.decodeArgs(raw, &args); err != nil {
			return nil, err
		}
		if err := d.checkPreflight(ctx, call, raw); err != nil {
			return nil, err
		}
		return h(ctx, call, args)
	}
	return d
}

// newDef checks spec and the output type, and sets up the schemas of the
// input and output types to be built on first use.
func newDef(spec Spec, in, out reflect.Type) *Def {
	if !validName(spec.Name) {
		panic(fmt.Sprintf("tool %q: name must be 1 to 64 characters of [a-z0-9_], starting with a letter", spec.Name))
	}
	if spec.Kind < ReadOnly || spec.Kind > Destructive {
		panic(fmt.Sprintf("tool %q: Kind is required", spec.Name))
	}
	if spec.Title == "" || spec.Description == "" {
		panic(fmt.Sprintf("tool %q: Title and Description are required", spec.Name))
	}
	checkFactSpecs(spec)
	if k := out.Kind(); k != reflect.Struct && k != reflect.Map {
		// The rest of the output schema's checks wait for its first use.
		panic(fmt.Sprintf("tool %q: output must be a struct (or a map), not %s", spec.Name, k))
	}
	d := &Def{Spec: spec}
	d.tree = sync.OnceValue(func() *jsonschema.Schema {
		d.built.Store(true)
		s := inferInput(spec.Name, in)
		for _, refine := range d.refinements {
			refine(s)
		}
		d.syncAliases(s)
		return s
	})
	d.input = sync.OnceValues(func() (*jsonschema.Resolved, error) {
		r, err := d.tree().Resolve(resolveOptions)
		if err != nil {
			return nil, fmt.Errorf("tool %q: resolving input schema: %w", spec.Name, err)
		}
		return r, nil
	})
	d.output = sync.OnceValues(func() (*jsonschema.Schema, error) {
		data, err := jsonschema.ForType(out, nil)
		if err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", spec.Name, err)
		}
		schema, err := envelopeSchema(data)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", spec.Name, err)
		}
		return schema, nil
	})
	return d
}

// decodeArgs checks raw arguments against the input schema's bounds (before
// they are decoded whole: args.go), applies the tool's argument rules
// (argrules.go), validates them, then decodes them. Validation comes first
// so the agent gets the schema's wording ("minimum 1") rather than a Go
// unmarshal error.
func (d *Def) decodeArgs(raw json.RawMessage, dst any) error {
	if len(raw) == 0 || string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	schema, err := d.input()
	if err != nil {
		return Errorf(Internal, "%v", err)
	}
	if err := checkArgs(raw, schema.Schema()); err != nil {
		return err
	}
	raw, err = d.applyRules(raw)
	if err != nil {
		return err
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return Errorf(InvalidParams, "arguments are not valid JSON: %v", err)
	}
	if err := schema.Validate(generic); err != nil {
		return Errorf(InvalidParams, "invalid arguments: %s", strings.TrimPrefix(err.Error(), "validating root: "))
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		return Errorf(InvalidParams, "invalid arguments: %v", err)
	}
	return nil
}

// WithEnum restricts a top-level input property to the given values, which
// the Go types cannot express, so that calls are validated against them.
func (d *Def) WithEnum(prop string, values ...any) *Def {
	return d.refine(func(s *jsonschema.Schema) {
		p := d.property(s, prop)
		p.Enum = values
		p.MaxLength = nil // only the enum's values pass: no length to state
	})
}

// WithRange bounds a top-level numeric input property, so out-of-range values
// are refused by the schema with its own wording.
func (d *Def) WithRange(prop string, min, max float64) *Def {
	return d.refine(func(s *jsonschema.Schema) {
		p := d.property(s, prop)
		p.Minimum, p.Maximum = &min, &max
	})
}

// WithMaxLength sets the bound of a top-level string input property, in
// characters, where the default (DefaultMaxLength) does not fit: text
// such as a file's content or a program takes more, a name less.
func (d *Def) WithMaxLength(prop string, n int) *Def {
	return d.refine(func(s *jsonschema.Schema) {
		p := d.property(s, prop)
		if !admits(p, "string") {
			panic(fmt.Sprintf("tool %q: input property %q is not a string", d.Spec.Name, prop))
		}
		p.MaxLength = &n
	})
}

// WithMaxItems sets the bound of a top-level list input property, and
// with itemLength > 0 that of each of its (string) items.
func (d *Def) WithMaxItems(prop string, n, itemLength int) *Def {
	return d.refine(func(s *jsonschema.Schema) {
		p := d.property(s, prop)
		if !admits(p, "array") || p.Items == nil {
			panic(fmt.Sprintf("tool %q: input property %q is not a list", d.Spec.Name, prop))
		}
		p.MaxItems = &n
		if itemLength > 0 {
			p.Items.MaxLength = &itemLength
		}
	})
}

// property is the top-level input property prop of s, the tree being
// built; a definition that names one its type does not have panics.
func (d *Def) property(s *jsonschema.Schema, prop string) *jsonschema.Schema {
	p, ok := s.Properties[prop]
	if !ok {
		panic(fmt.Sprintf("tool %q: no input property %q", d.Spec.Name, prop))
	}
	return p
}

// OutputSchema is the tool's full outputSchema: the envelope with data
// typed by the tool's output (envelopeSchema). docs/tools.md is written
// from it and tests check answers against it; tools/list serves
// servedOutputSchema.
func (d *Def) OutputSchema() (*jsonschema.Schema, error) { return d.output() }

// Check resolves the input schema and infers the output schema now rather
// than on first use, and reports what is wrong with either: a programming
// error, which the catalogue test looks for in every tool.
func (d *Def) Check() error {
	if _, err := d.input(); err != nil {
		return err
	}
	_, err := d.output()
	return err
}
