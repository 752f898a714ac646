package core

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type handleReadIn struct {
	Handle string `json:"handle" jsonschema:"id from another tool's answer"`
	Offset int64  `json:"offset,omitempty" jsonschema:"line, or byte with unit bytes; pass next_offset"`
	Limit  int64  `json:"limit,omitempty" jsonschema:"lines (default 200, max 2000) or bytes (default 1048576)"`
	Unit   string `json:"unit,omitempty" default:"lines"`
}

type handleReadOut struct {
	Handle         string         `json:"handle"`
	Type           string         `json:"type" jsonschema:"what produced the handle"`
	Meta           map[string]any `json:"meta,omitempty" jsonschema:"what the payload is, as recorded by its producer"`
	Unit           string         `json:"unit"`
	Offset         int64          `json:"offset"`
	Returned       int64          `json:"returned" jsonschema:"lines or bytes in content"`
	Total          int64          `json:"total" jsonschema:"lines or bytes in the whole payload"`
	HasMore        bool           `json:"has_more" jsonschema:"true until a page reaches the end; the opposite of eof"`
	EOF            bool           `json:"eof" jsonschema:"true when this page reaches the end of the payload"`
	NextOffset     int64          `json:"next_offset" jsonschema:"offset of the next page, in unit; total at eof"`
	ExpiresAt      string         `json:"expires_at" jsonschema:"when the handle is deleted, RFC 3339"`
	LineCut        bool           `json:"line_cut,omitempty" jsonschema:"true when the line at offset is longer than a page: content is its start, the rest begins at byte line_rest_offset (read it with unit bytes), and next_offset is the line after it"`
	LineRestOffset int64          `json:"line_rest_offset,omitempty" jsonschema:"with line_cut: the byte offset where the rest of the cut line begins"`
	Content        string         `json:"content"`
}

// maxLines and maxBytes are the schema's limits: what a page may hold
// before the output cap shortens it.
const (
	maxLines = store.MaxLineLimit
	maxBytes = store.MaxByteLimit
)

func (s *Set) handleRead() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "handle_read",
		Kind:        tool.ReadOnly,
		Title:       "Read a stored result",
		Description: "Page a result stored as a handle, by lines or bytes, following next_offset to eof.",
	}, s.readHandle).WithEnum("unit", "lines", "bytes").WithRange("limit", 0, maxBytes)
}

func (s *Set) readHandle(ctx context.Context, call *tool.Call, in handleReadIn) (handleReadOut, error) {
	w, err := window(in)
	if err != nil {
		return handleReadOut{}, err
	}
	// No page holds more bytes than the answer may take; fill cuts the
	// window to what is left beside the handle's description.
	w.MaxBytes = int64(max(call.DataBudget(), 1))
	sl, err := s.handles.ReadWindow(ctx, in.Handle, w)
	if err != nil {
		return handleReadOut{}, handleError(err, in)
	}
	p := newPage(call, sl.Handle, w)
	if p.room < minPageRoom {
		return handleReadOut{}, tool.Errorf(tool.OutputTooLarge, "handle %s's description leaves no room for content under handle_read's output cap", sl.Handle.ID).
			WithSuggestion("Read it as the resource hostmcp://handle/%s; the operator can raise [tools.handle_read] output_cap_bytes.", sl.Handle.ID)
	}
	return p.fill(call, sl), nil
}

// window checks the request and gives its unit and limit their defaults.
func window(in handleReadIn) (store.Window, error) {
	w := store.Window{Offset: in.Offset, Limit: in.Limit, Unit: store.Lines}
	switch in.Unit {
	case "", "lines":
		if w.Limit == 0 {
			w.Limit = store.DefaultLineLimit
		}
	case "bytes":
		w.Unit = store.Bytes
		if w.Limit == 0 {
			w.Limit = maxBytes // as much as fits the cap
		}
	default:
		return w, tool.Errorf(tool.InvalidArgument, "unit must be lines or bytes, not %q", tool.Clip(in.Unit))
	}
	if in.Offset < 0 || in.Limit < 0 {
		return w, tool.Errorf(tool.InvalidArgument, "offset and limit must not be negative")
	}
	if w.Unit == store.Lines && w.Limit > maxLines {
		return w, tool.Errorf(tool.InvalidArgument, "limit is at most %d lines, not %d", maxLines, in.Limit).
			WithSuggestion("Call again with limit %d or less, or with unit bytes (up to %d).", maxLines, maxBytes)
	}
	return w, nil
}

func handleError(err error, in handleReadIn) error {
	switch {
	case errors.Is(err, store.ErrHandleExpired):
		return tool.Wrap(tool.HandleExpired, err, "handle %q has expired", tool.Clip(in.Handle))
	case errors.Is(err, store.ErrHandleNotKept):
		return tool.Wrap(tool.HandleNotKept, err, "%v", err) // the id in it is a valid one
	case errors.Is(err, store.ErrHandleNotFound):
		return tool.Wrap(tool.HandleNotFound, err, "no handle %q", tool.Clip(in.Handle))
	case errors.Is(err, store.ErrOffsetOutOfRange):
		return tool.Wrap(tool.InvalidArgument, err, "offset %d is past the end of handle %s", in.Offset, tool.Clip(in.Handle)).
			WithSuggestion("Call handle_read with offset 0 and read total from the answer.")
	}
	return tool.Wrap(tool.InvalidArgument, err, "reading handle %q: %v", tool.Clip(in.Handle), err)
}

// minPageRoom is the least a page's content may take as JSON: the quotes
// and one character at its longest (\u2028), so that paging always moves.
const minPageRoom = 2 + 6

// page is one answer under construction: everything but its content, and
// the room that leaves for the content in JSON, quotes included.
type page struct {
	out  handleReadOut
	size int64 // of the payload, in bytes
	room int
}

func newPage(call *tool.Call, h store.Handle, w store.Window) *page {
	total := h.Lines
	if w.Unit == store.Bytes {
		total = h.Size
	}
	p := &page{out: handleReadOut{
		Handle: h.ID, Type: h.Type, Meta: h.Meta, Unit: string(w.Unit), Offset: w.Offset, Total: total,
		ExpiresAt: h.Expires.UTC().Format("2006-01-02T15:04:05Z07:00"),
	}, size: h.Size}
	p.room = call.DataBudget() - p.bytesAround()
	return p
}

// bytesAround is the length of the answer without its content's JSON, with
// every number as long as it can be and every optional field present.
func (p *page) bytesAround() int {
	o := p.out
	o.Returned, o.NextOffset = o.Total, o.Total
	o.LineCut, o.LineRestOffset = true, p.size
	js, err := tool.MarshalJSON(o)
	if err != nil {
		panic(fmt.Sprintf("marshaling a handle_read answer: %v", err)) // only maps from JSON are in it
	}
	return len(js) - len(`""`)
}

// fill puts as much of the window in the page as fits its room.
func (p *page) fill(call *tool.Call, sl store.Slice) handleReadOut {
	out := p.out
	content := sl.Content
	wholeLines := 0
	if sl.Unit == store.Lines && !sl.Truncated {
		wholeLines = tool.FitJSONString(content, p.room, true)
	}
	switch {
	case sl.Unit == store.Bytes:
		content = content[:tool.FitJSONString(content, p.room, false)]
		out.Returned = int64(len(content))
	case !sl.Truncated && wholeLines > 0:
		out.Returned = sl.Returned
		if wholeLines < len(content) {
			content = content[:wholeLines]
			out.Returned = int64(strings.Count(content, "\n"))
		}
	case content != "": // the line at offset alone is longer than a page
		longest := cutLineWarning(out.Handle, out.Offset, p.size, out.Offset+1)
		room := p.room - (call.DataBudget() - call.DataBudget(longest))
		content = content[:tool.FitJSONString(content, room, false)]
		out.Returned, out.LineCut, out.LineRestOffset = 1, true, sl.Start+int64(len(content))
		call.Warn("%s", cutLineWarning(out.Handle, out.Offset, out.LineRestOffset, out.Offset+1))
	}
	out.Content = content
	out.NextOffset = out.Offset + out.Returned
	out.EOF = out.NextOffset >= out.Total
	out.HasMore = !out.EOF
	return out
}

// cutLineWarning gives the exact calls that read the rest of a cut line and
// then go on by lines.
func cutLineWarning(handle string, line, rest, next int64) string {
	return fmt.Sprintf(`line %d is longer than a page and was cut: read the rest of it with handle_read {"handle":%q,"offset":%d,"unit":"bytes"}, then go on with {"handle":%q,"offset":%d}`,
		line, handle, rest, handle, next)
}
