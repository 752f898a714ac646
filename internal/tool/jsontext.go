package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
)

// MarshalJSON encodes v as compact JSON without encoding/json's HTML
// escaping. The envelope's JSON is the text a model reads: escaped, every
// <, > and & of a file, a command line or a REPL prompt would reach it as a
// six-character \u003c sequence, costing tokens and inviting the model to
// copy the escape into its next old_text.
func MarshalJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// JSONLines encodes items one JSON object per line (without HTML escaping),
// the form handle_read pages by line. A flat struct type is written by its
// linePlan (jsonlines.go), byte for byte what encoding/json writes; any
// other goes through encoding/json.
func JSONLines[T any](items []T) ([]byte, error) {
	if p, ok := planLines(reflect.TypeFor[T]()); ok {
		return appendLines(&p, items), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
			return nil, err
		}
	}
	return b.Bytes(), nil
}

// PutLines stores items as JSON Lines in a handle, one item per line, and
// returns its id; meta gets "format": "jsonl" and the number of lines. It is
// for the full list behind a truncated answer that shows the first shown
// items: a warning gives the exact call that reads on from there. A failure
// does not fail the call: it warns and returns "", and the answer still
// holds the first items.
func PutLines[T any](ctx context.Context, call *Call, typ string, meta map[string]any, items []T, shown int) string {
	id := putLines(ctx, call, typ, meta, items)
	if id != "" {
		call.Warn("%s", shownWarning(shown, len(items), id))
	}
	return id
}

// shownWarning is PutLines' warning: shown of total items are in the
// answer, and handle id holds all of them from line 0.
func shownWarning(shown, total int, id string) string {
	return fmt.Sprintf(`%d of %d items are shown; handle %s holds all of them, one JSON object per line: read on with handle_read {"handle":%q,"offset":%d,"unit":"lines"}`,
		shown, total, id, id, shown)
}

// PutWholeLines is PutLines for a listing that shows its first shown items
// shortened (cut says how, e.g. "command lines cut at 60 characters"), so
// that an answer sized for a model loses nothing: the handle holds every
// item whole, in the same order, and the warning says what was cut and
// gives the exact call that reads on, or, when every item is shown, the
// call that reads them whole.
func PutWholeLines[T any](ctx context.Context, call *Call, typ string, meta map[string]any, items []T, shown int, cut string) string {
	id := putLines(ctx, call, typ, meta, items)
	switch {
	case id == "":
	case shown < len(items):
		call.Warn(`%d of %d items are shown, %s; handle %s holds all of them whole, one JSON object per line: read on with handle_read {"handle":%q,"offset":%d,"unit":"lines"}, or from offset 0 for the shown ones whole`,
			shown, len(items), cut, id, id, shown)
	default:
		call.Warn(`%s; handle %s holds every item whole, one JSON object per line: handle_read {"handle":%q,"offset":0,"unit":"lines"}`, cut, id, id)
	}
	return id
}

// putLines stores items as JSON Lines in a handle; on failure it warns and
// returns "".
func putLines[T any](ctx context.Context, call *Call, typ string, meta map[string]any, items []T) string {
	m := map[string]any{"format": "jsonl", "lines": len(items)}
	maps.Copy(m, meta)
	id, err := putLinesLater(ctx, call, typ, m, items)
	if err == errNotLater {
		payload, encErr := JSONLines(items)
		if encErr != nil {
			call.Warn("the full list could not be encoded: %v", encErr)
			return ""
		}
		id, err = call.PutHandle(ctx, typ, m, payload)
	}
	if err != nil {
		call.Warn("the full list could not be kept as a handle: %s", AsError(err).Message)
		return ""
	}
	return id
}
