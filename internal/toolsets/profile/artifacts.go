package profile

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type listIn struct {
	RunID      string `json:"run_id,omitempty" jsonschema:"only this run's"`
	MaxResults int    `json:"max_results,omitempty" default:"50"`
}

type listOut struct {
	Artifacts []store.Artifact `json:"artifacts"`
}

func (s *Set) listArtifacts() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_list_artifacts",
		Kind:        tool.ReadOnly,
		Title:       "List profiling artifacts",
		Description: "List profiling artifacts (collapsed stacks, pprof, flame graphs), newest first.",
		Timeout:     10 * time.Second,
	}, s.handleList).WithRange("max_results", 1, 500)
}

func (s *Set) handleList(ctx context.Context, _ *tool.Call, in listIn) (listOut, error) {
	limit := in.MaxResults
	if limit == 0 {
		limit = 50
	}
	list, err := s.deps.Store.Artifacts(ctx, in.RunID, limit)
	if err != nil {
		return listOut{}, tool.Wrap(tool.Internal, err, "listing artifacts: %v", err)
	}
	if list == nil {
		list = []store.Artifact{}
	}
	return listOut{Artifacts: list}, nil
}

type getIn struct {
	ID     string `json:"id" jsonschema:"from a profile or perf_list_artifacts"`
	Offset int64  `json:"offset,omitempty" jsonschema:"first byte"`
	Limit  int64  `json:"limit,omitempty" jsonschema:"cut to fit the cap" default:"65536"`
}

type getOut struct {
	Artifact   store.Artifact `json:"artifact"`
	Offset     int64          `json:"offset"`
	Length     int64          `json:"length"`
	Encoding   string         `json:"encoding" jsonschema:"text, or base64 for binary content such as pprof"`
	Content    string         `json:"content"`
	NextOffset *int64         `json:"next_offset,omitempty" jsonschema:"where the next read starts, when there is more"`
}

func (s *Set) getArtifact() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_get_artifact",
		Kind:        tool.ReadOnly,
		Title:       "Read a profiling artifact",
		Description: "Read a byte range of an artifact (pprof as base64), also hostmcp://artifact/{id}.",
		Timeout:     10 * time.Second,
	}, s.handleGet).WithRange("offset", 0, 1<<40).WithRange("limit", 1, 1<<20)
}

func (s *Set) handleGet(ctx context.Context, call *tool.Call, in getIn) (getOut, error) {
	limit := in.Limit
	if limit == 0 {
		limit = 64 << 10
	}
	a, b, err := s.deps.Store.ReadArtifact(ctx, in.ID, in.Offset, limit)
	switch {
	case errors.Is(err, store.ErrArtifactNotFound):
		return getOut{}, tool.Wrap(tool.ArtifactNotFound, err, "%v", err)
	case errors.Is(err, store.ErrOffsetOutOfRange):
		return getOut{}, tool.Wrap(tool.InvalidArgument, err, "%v", err)
	case err != nil:
		return getOut{}, tool.Wrap(tool.Internal, err, "reading the artifact: %v", err)
	}
	call.Link(tool.ArtifactLink(a.ID, a.Tool, a.Type, a.MIME, a.Size))
	out := getOut{Artifact: a, Offset: in.Offset, Encoding: "text"}
	if !isText(a.MIME) || !utf8.Valid(b) {
		out.Encoding = "base64"
	}
	// The page is shortened to what the answer may hold beside the rest of
	// it, measured as the JSON it becomes: escaped text, or base64.
	room := call.DataBudget() - bytesAround(out, a.Size)
	if room < 8 {
		return getOut{}, tool.Errorf(tool.OutputTooLarge, "artifact %s's description leaves no room for content under perf_get_artifact's output cap", a.ID).
			WithSuggestion("The operator can raise [tools.perf_get_artifact] output_cap_bytes.")
	}
	if out.Encoding == "base64" {
		b = b[:min(len(b), (room-2)/4*3)]
		out.Content = base64.StdEncoding.EncodeToString(b)
	} else {
		b = b[:tool.FitJSONString(string(b), room, false)]
		out.Content = string(b)
	}
	out.Length = int64(len(b))
	if next := in.Offset + int64(len(b)); next < a.Size {
		out.NextOffset = &next
	}
	return out, nil
}

// bytesAround is the length of an answer without its content's JSON, its
// numbers as long as they can be.
func bytesAround(out getOut, size int64) int {
	out.Length = size
	out.NextOffset = &size
	js, err := tool.MarshalJSON(out)
	if err != nil {
		panic(fmt.Sprintf("marshaling a perf_get_artifact answer: %v", err)) // plain fields only
	}
	return len(js) - len(`""`)
}

// isText reports whether a MIME type is text a client can show.
func isText(mime string) bool {
	return strings.HasPrefix(mime, "text/") || strings.HasPrefix(mime, "image/svg+xml") || strings.Contains(mime, "json")
}
