package core

import (
	"context"
	"errors"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type handleReadIn struct {
	Handle string `json:"handle" jsonschema:"handle id returned by another tool, e.g. H_result_20261122T024500Z_9f3a1c2b"`
	Offset int64  `json:"offset,omitempty" jsonschema:"where to start: a 0-based line number, or a byte offset when unit is bytes; default 0"`
	Limit  int64  `json:"limit,omitempty" jsonschema:"how much to return: lines (default 200, max 2000) or bytes (default 65536, max 1048576)"`
	Unit   string `json:"unit,omitempty" jsonschema:"lines (default) or bytes"`
}

type handleReadOut struct {
	Handle     string         `json:"handle"`
	Type       string         `json:"type" jsonschema:"what produced the handle"`
	Meta       map[string]any `json:"meta,omitempty" jsonschema:"what the payload is, as recorded by its producer"`
	Unit       string         `json:"unit"`
	Offset     int64          `json:"offset"`
	Returned   int64          `json:"returned" jsonschema:"lines or bytes in content"`
	Total      int64          `json:"total" jsonschema:"lines or bytes in the whole payload"`
	HasMore    bool           `json:"has_more"`
	NextOffset int64          `json:"next_offset" jsonschema:"offset for the next call when has_more"`
	ExpiresAt  string         `json:"expires_at" jsonschema:"when the handle is deleted, RFC 3339"`
	LineCut    bool           `json:"line_cut,omitempty" jsonschema:"true when a single line over 1 MiB was cut; the rest of that line is skipped"`
	Content    string         `json:"content"`
}

func (s *Set) handleRead() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "handle_read",
		Kind:        tool.ReadOnly,
		Title:       "Read a stored result",
		Description: "Page through a large result that another tool stored as a handle, by lines or bytes.",
	}, s.readHandle).WithEnum("unit", "lines", "bytes")
}

func (s *Set) readHandle(ctx context.Context, _ *tool.Call, in handleReadIn) (handleReadOut, error) {
	unit := store.Lines
	switch in.Unit {
	case "", "lines":
	case "bytes":
		unit = store.Bytes
	default:
		return handleReadOut{}, tool.Errorf(tool.InvalidArgument, "unit must be lines or bytes, not %q", tool.Clip(in.Unit))
	}
	if in.Offset < 0 || in.Limit < 0 {
		return handleReadOut{}, tool.Errorf(tool.InvalidArgument, "offset and limit must not be negative")
	}
	sl, err := s.handles.ReadHandle(ctx, in.Handle, in.Offset, in.Limit, unit)
	switch {
	case errors.Is(err, store.ErrHandleExpired):
		return handleReadOut{}, tool.Wrap(tool.HandleExpired, err, "handle %s has expired", tool.Clip(in.Handle))
	case errors.Is(err, store.ErrHandleNotFound):
		return handleReadOut{}, tool.Wrap(tool.HandleNotFound, err, "no handle %s", tool.Clip(in.Handle))
	case errors.Is(err, store.ErrOffsetOutOfRange):
		return handleReadOut{}, tool.Wrap(tool.InvalidArgument, err, "offset %d is past the end of handle %s", in.Offset, tool.Clip(in.Handle)).
			WithSuggestion("Call handle_read with offset 0 and read total from the answer.")
	case err != nil:
		return handleReadOut{}, tool.Wrap(tool.InvalidArgument, err, "reading handle %s: %s", tool.Clip(in.Handle), tool.Clip(err.Error()))
	}
	return handleReadOut{
		Handle:     sl.Handle.ID,
		Type:       sl.Handle.Type,
		Meta:       sl.Handle.Meta,
		Unit:       string(sl.Unit),
		Offset:     sl.Offset,
		Returned:   sl.Returned,
		Total:      sl.Total,
		HasMore:    sl.HasMore,
		NextOffset: sl.NextOffset,
		ExpiresAt:  sl.Handle.Expires.UTC().Format("2006-01-02T15:04:05Z07:00"),
		LineCut:    sl.Truncated,
		Content:    sl.Content,
	}, nil
}
