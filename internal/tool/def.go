package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
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
// Of its schemas, only the input schema is inferred when the tool is
// built: tools/list serves it and the With methods refine it. Resolving
// it for validation, and inferring the full output schema (which only
// docs/tools.md and tests read), wait for their first use: done for
// every tool at start-up they were most of the time to the initialize
// answer. Check does both at once; the catalogue test runs it on every
// tool, so a malformed schema still fails the build.
type Def struct {
	Spec        Spec
	InputSchema *jsonschema.Schema
	// input is the input schema resolved for validation, on first use.
	input func() (*jsonschema.Resolved, error)
	// schemaMu guards InputSchema's release and its reading back by the
	// first call (release.go); inputRead is set once it was read to be
	// resolved, and inputJSON holds the released tree.
	schemaMu  sync.Mutex
	inputRead bool
	inputJSON []byte
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

// New binds a handler to its spec and infers both schemas from the Go types.
// It panics on a malformed definition: that is a programming error, caught by
// the registry test that builds every toolset.
func New[In, Out any](spec Spec, h Handler[In, Out]) *Def {
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
	in, err := jsonschema.For[In](nil)
	if err != nil {
		panic(fmt.Sprintf("tool %q: input schema: %v", spec.Name, err))
	}
	if in.Type != "object" {
		panic(fmt.Sprintf("tool %q: input must be a struct", spec.Name))
	}
	if in.Properties == nil {
		// An empty object schema must still say it has no properties, or
		// some clients render it as "any arguments".
		in.Properties = map[string]*jsonschema.Schema{}
	}
	strictInput(spec.Name, in, "")
	boundSchema(in)
	defaultsFromTags(spec.Name, reflect.TypeFor[In](), in)
	if k := reflect.TypeFor[Out]().Kind(); k != reflect.Struct && k != reflect.Map {
		// The rest of the output schema's checks wait for its first use.
		panic(fmt.Sprintf("tool %q: output must be a struct (or a map), not %s", spec.Name, k))
	}
	d := &Def{Spec: spec, InputSchema: in}
	d.resolve()
	d.output = sync.OnceValues(func() (*jsonschema.Schema, error) {
		data, err := jsonschema.For[Out](nil)
		if err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", spec.Name, err)
		}
		out, err := envelopeSchema(data)
		if err != nil {
			return nil, fmt.Errorf("tool %q: %w", spec.Name, err)
		}
		return out, nil
	})
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
// the Go types cannot express, and re-resolves the schema so that calls are
// validated against it.
func (d *Def) WithEnum(prop string, values ...any) *Def {
	p, ok := d.InputSchema.Properties[prop]
	if !ok {
		panic(fmt.Sprintf("tool %q: no input property %q", d.Spec.Name, prop))
	}
	p.Enum = values
	p.MaxLength = nil // only the enum's values pass: no length to state
	d.resolve()
	return d
}

// WithRange bounds a top-level numeric input property, so out-of-range values
// are refused by the schema with its own wording.
func (d *Def) WithRange(prop string, min, max float64) *Def {
	p, ok := d.InputSchema.Properties[prop]
	if !ok {
		panic(fmt.Sprintf("tool %q: no input property %q", d.Spec.Name, prop))
	}
	p.Minimum, p.Maximum = &min, &max
	d.resolve()
	return d
}

// WithMaxLength sets the bound of a top-level string input property, in
// characters, where the default (DefaultMaxLength) does not fit: text
// such as a file's content or a program takes more, a name less.
func (d *Def) WithMaxLength(prop string, n int) *Def {
	p := d.property(prop)
	if !admits(p, "string") {
		panic(fmt.Sprintf("tool %q: input property %q is not a string", d.Spec.Name, prop))
	}
	p.MaxLength = &n
	d.resolve()
	return d
}

// WithMaxItems sets the bound of a top-level list input property, and
// with itemLength > 0 that of each of its (string) items.
func (d *Def) WithMaxItems(prop string, n, itemLength int) *Def {
	p := d.property(prop)
	if !admits(p, "array") || p.Items == nil {
		panic(fmt.Sprintf("tool %q: input property %q is not a list", d.Spec.Name, prop))
	}
	p.MaxItems = &n
	if itemLength > 0 {
		p.Items.MaxLength = &itemLength
	}
	d.resolve()
	return d
}

func (d *Def) property(prop string) *jsonschema.Schema {
	p, ok := d.InputSchema.Properties[prop]
	if !ok {
		panic(fmt.Sprintf("tool %q: no input property %q", d.Spec.Name, prop))
	}
	return p
}

// resolve is called whenever the input schema changes while the tool is
// built: it gives the aliases their arguments' schemas now, and resolves
// the schema on first use, once it no longer changes. Resolution checks
// the schema itself and validates its defaults (resolveOptions).
func (d *Def) resolve() {
	d.syncAliases()
	d.input = sync.OnceValues(func() (*jsonschema.Resolved, error) {
		in, err := d.inputTree()
		if err != nil {
			return nil, err
		}
		r, err := in.Resolve(resolveOptions)
		if err != nil {
			return nil, fmt.Errorf("tool %q: resolving input schema: %w", d.Spec.Name, err)
		}
		return r, nil
	})
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
