package tool

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// Markdown renders the tool reference (docs/tools.md) from the definitions,
// so the documentation cannot drift from what is served.
func Markdown(sets []Toolset) []byte {
	var b strings.Builder
	b.WriteString("# hostmcp tools\n\n")
	b.WriteString("Generated from the registry by `go test ./internal/catalog -update` (also `hostmcp tools --markdown`); do not edit by hand.\n\n")
	b.WriteString("Every tool answers with the envelope described at the end of this page.\n\n")
	fmt.Fprintf(&b, "Every string argument is at most %d characters, every list at most %d items and every map at most %d entries, "+
		"unless its row says otherwise (the input schemas say it too, as maxLength, maxItems and maxProperties); "+
		"a longer one is refused with `INVALID_PARAMS` before the tool runs.\n\n", DefaultMaxLength, DefaultMaxItems, DefaultMaxProperties)
	b.WriteString("An argument given as `null` counts as not given. An argument a tool does not take is refused, naming those it takes. " +
		"Rows marked \"alias of\" or \"opposite of\" are second names a tool also accepts (both names with different values are refused); " +
		"tools/list leaves them out of the input schema, which names the main one.\n\n")
	b.WriteString("Every tool's outputSchema in tools/list is the envelope's fields a client acts on (`success`, `data` as an object, " +
		"`error` with `code`, `message`, `recoverable` and `retry_after_ms`, `truncated`, `handle`, `data_preview`, `preview_counts`, `warnings`); " +
		"the fields of each tool's `data` are listed here.\n\n")
	b.WriteString("| tool | toolset | kind | description |\n|---|---|---|---|\n")
	for _, ts := range sets {
		for _, d := range ts.Tools {
			fmt.Fprintf(&b, "| [`%s`](#%s) | %s | %s | %s |\n", d.Spec.Name, d.Spec.Name, ts.Name, d.Spec.Kind, d.Spec.Description)
		}
	}
	for _, ts := range sets {
		def := "on"
		if !ts.DefaultEnabled {
			def = "off"
		}
		fmt.Fprintf(&b, "\n## Toolset `%s` (default %s)\n\n%s\n", ts.Name, def, ts.Description)
		for _, d := range ts.Tools {
			writeTool(&b, d)
		}
	}
	b.WriteString("\n## The envelope\n\n")
	b.WriteString("`structuredContent` (and, as compact JSON, the text content) of every result:\n\n")
	env, err := envelopeTypeSchema()
	if err != nil {
		panic(err)
	}
	writeProps(&b, env, false)
	b.WriteString("\nThe `error` object:\n\n")
	errInfo, err := jsonschema.For[ErrorInfo](nil)
	if err != nil {
		panic(err)
	}
	writeProps(&b, errInfo, false)
	fmt.Fprintf(&b, "\nThe call's provenance is not in the envelope: it is in the result's `_meta`, under `%s`, "+
		"which clients keep for their logs and views and do not show the model (every protocol revision defines `_meta`):\n\n", ProvenanceKey)
	prov, err := jsonschema.For[Provenance](nil)
	if err != nil {
		panic(err)
	}
	writeProps(&b, prov, false)
	b.WriteString("\nError codes: ")
	codes := Codes()
	names := make([]string, len(codes))
	for i, c := range codes {
		names[i] = "`" + string(c) + "`"
	}
	b.WriteString(strings.Join(names, ", ") + ".\n")
	return []byte(b.String())
}

func writeTool(b *strings.Builder, d *Def) {
	a := d.MCPTool().Annotations
	fmt.Fprintf(b, "\n### %s\n\n**%s** — %s\n\n", d.Spec.Name, d.Spec.Title, d.Spec.Description)
	fmt.Fprintf(b, "Kind: %s (readOnly=%t, destructive=%t, idempotent=%t, openWorld=%t).", d.Spec.Kind,
		a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint)
	if d.Spec.Timeout > 0 {
		fmt.Fprintf(b, " Default timeout: %s.", d.Spec.Timeout)
	}
	if d.Spec.Programs {
		b.WriteString(" Starts programs: bounded by `[load] max_program_calls`.")
	}
	if d.Spec.View != "" {
		fmt.Fprintf(b, " View: `%s`, for clients that render MCP Apps.", d.Spec.View)
	}
	b.WriteString("\n\nArguments:")
	if in := d.InputSchema(); len(in.Properties) == 0 {
		b.WriteString(" none.\n")
	} else {
		b.WriteString("\n\n")
		writeProps(b, in, true)
	}
	b.WriteString("\nResult `data`:\n\n")
	out, err := d.OutputSchema()
	if err != nil {
		panic(err) // a programming error: the catalogue test reports it first
	}
	writeProps(b, out.Properties["data"], false)
}

// writeProps renders an object schema's top-level properties as a table,
// with their bounds when they are arguments.
func writeProps(b *strings.Builder, s *jsonschema.Schema, args bool) {
	if s == nil || len(s.Properties) == 0 {
		b.WriteString("(no fields)\n")
		return
	}
	req := map[string]bool{}
	for _, r := range s.Required {
		req[r] = true
	}
	names := make([]string, 0, len(s.Properties))
	for n := range s.Properties {
		names = append(names, n)
	}
	sort.Strings(names)
	b.WriteString("| name | type | required | description |\n|---|---|---|---|\n")
	for _, n := range names {
		p := s.Properties[n]
		desc := p.Description
		if len(p.Enum) > 0 {
			e, _ := json.Marshal(p.Enum)
			desc += " (one of " + string(e) + ")"
		}
		if args {
			if p.Default != nil {
				desc = strings.TrimPrefix(desc+"; default "+string(p.Default), "; ")
			}
			desc += ownBounds(p)
		}
		fmt.Fprintf(b, "| `%s` | %s | %s | %s |\n", n, typeOf(p), yesNo(req[n]), strings.ReplaceAll(desc, "|", "\\|"))
	}
}

// ownBounds states the bounds of an argument that differ from the defaults
// the page states once.
func ownBounds(s *jsonschema.Schema) string {
	var out []string
	if s.MaxLength != nil && *s.MaxLength != DefaultMaxLength {
		out = append(out, fmt.Sprintf("at most %d characters", *s.MaxLength))
	}
	if s.MaxItems != nil && *s.MaxItems != DefaultMaxItems {
		out = append(out, fmt.Sprintf("at most %d items", *s.MaxItems))
	}
	if s.Items != nil && s.Items.MaxLength != nil && *s.Items.MaxLength != DefaultMaxLength {
		out = append(out, fmt.Sprintf("each at most %d characters", *s.Items.MaxLength))
	}
	if len(out) == 0 {
		return ""
	}
	return " (" + strings.Join(out, ", ") + ")"
}

func typeOf(s *jsonschema.Schema) string {
	if s.Type != "" {
		if s.Type == "array" && s.Items != nil {
			return typeOf(s.Items) + "[]"
		}
		return s.Type
	}
	t := make([]string, 0, len(s.Types))
	for _, x := range s.Types {
		if x != "null" {
			t = append(t, x)
		}
	}
	if len(t) == 1 && t[0] == "array" && s.Items != nil {
		return typeOf(s.Items) + "[]"
	}
	if len(t) == 0 {
		return "any"
	}
	return strings.Join(t, "\\|")
}

func yesNo(v bool) string {
	if v {
		return "yes"
	}
	return "no"
}
