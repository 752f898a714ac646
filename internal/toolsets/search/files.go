package search

import (
	"bytes"
	"context"
	"path"
	"strings"
	"unsafe"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fileCap bounds the paths one search_files call collects.
const fileCap = 100_000

type filesIn struct {
	Path           string `json:"path,omitempty" jsonschema:"directory (default: the first root)"`
	Pattern        string `json:"pattern" jsonschema:"glob if it has * ? [, else a substring of the name"`
	IgnoreCase     *bool  `json:"ignore_case,omitempty" default:"true"`
	FileGlob       string `json:"file_glob,omitempty" jsonschema:"only paths matching this gitignore glob; !glob excludes"`
	MaxResults     int    `json:"max_results,omitempty" jsonschema:"paths shown; fewer when more would pass the output cap; all found, up to 100000, go to a handle" default:"200"`
	IncludeHidden  bool   `json:"include_hidden,omitempty"`
	IncludeIgnored bool   `json:"include_ignored,omitempty"`
	CrossMounts    bool   `json:"cross_mounts,omitempty" jsonschema:"enter mounted file systems"`
	Engine         string `json:"engine,omitempty" jsonschema:"auto: rg if installed" default:"auto"`
}

type fileHit struct {
	Path string `json:"path" jsonschema:"relative to the search root"`
}

type filesOut struct {
	Hits      []fileHit `json:"hits" jsonschema:"sorted by path"`
	TotalHits int       `json:"total_hits" jsonschema:"files found (a lower bound when complete is false)"`
	Truncated bool      `json:"truncated"`
	Complete  bool      `json:"complete" jsonschema:"false when the search stopped at 100000 files"`
	Handle    string    `json:"handle,omitempty" jsonschema:"every path found, one JSON object per line, for handle_read"`
	Root      string    `json:"root" jsonschema:"absolute directory searched"`
	Engine    string    `json:"engine"`
}

func (s *Set) files() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "search_files",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Find files by name",
		Description: "Find files under a directory by name (glob or substring), honouring .gitignore; fewer than max_results paths shown when more would pass the output cap, every path in a handle.",
	}, s.handleFiles).WithRange("max_results", 0, 2000).WithEnum("engine", "auto", "rg", "native").
		WithMaxLength("pattern", maxPattern).WithMaxLength("file_glob", maxPattern).
		WithAlias("root", "path").WithOpposite("case_sensitive", "ignore_case")
}

// nameMatcher builds the file-name test from pattern.
func nameMatcher(pattern string, caseSensitive bool) (func(string) bool, error) {
	if !caseSensitive {
		pattern = strings.ToLower(pattern)
	}
	fold := func(s string) string {
		if caseSensitive {
			return s
		}
		return strings.ToLower(s)
	}
	if strings.ContainsAny(pattern, "*?[") {
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, tool.Errorf(tool.InvalidArgument, "pattern %q is not a valid glob: %v", tool.Clip(pattern), err)
		}
		return func(name string) bool { ok, _ := path.Match(pattern, fold(name)); return ok }, nil
	}
	return func(name string) bool { return strings.Contains(fold(name), pattern) }, nil
}

func (s *Set) handleFiles(ctx context.Context, call *tool.Call, in filesIn) (filesOut, error) {
	eng, err := s.engine(in.Engine)
	if err != nil {
		return filesOut{}, err
	}
	if in.MaxResults == 0 {
		in.MaxResults = 200
	}
	if in.MaxResults < 1 || in.MaxResults > 2000 {
		return filesOut{}, tool.Errorf(tool.InvalidArgument, "max_results must be 1 to 2000, not %d", in.MaxResults)
	}
	match, err := nameMatcher(in.Pattern, in.IgnoreCase != nil && !*in.IgnoreCase)
	if err != nil {
		return filesOut{}, err
	}
	if _, err := compileGlob(in.FileGlob); err != nil {
		return filesOut{}, err
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return filesOut{}, err
	}
	defer release()
	req, err := s.prepare(roots, contentIn{Path: in.Path, FileGlob: in.FileGlob, IncludeHidden: in.IncludeHidden, IncludeIgnored: in.IncludeIgnored, CrossMounts: in.CrossMounts})
	if err != nil {
		return filesOut{}, err
	}
	defer req.close()
	var runs sortedRuns
	complete := true
	add := func(rel string) bool {
		if runs.len() == fileCap {
			complete = false
			return false
		}
		runs.add(rel)
		if runs.len() == in.MaxResults+1 {
			call.HandleLikely("search_files") // more than are shown: the rest go to a handle
		}
		return true
	}
	if eng == "rg" {
		// Each path is checked as rg prints it, while rg goes on walking.
		reported := req.fence.Reported()
		// --null ends each path with a NUL, which no name holds: a name
		// with a newline comes whole, never as two paths.
		_, err = runRg(ctx, s.exec, req.loc, append(rgBase(req.rgOptions()), "--files", "--null"), true, func(line []byte) bool {
			// rg prints every path as "./...": anything else is not one.
			if !bytes.HasPrefix(line, []byte("./")) {
				return true
			}
			// Most names do not match: each is matched where it lies in
			// rg's line, which match keeps nothing of, and only the path
			// of one that does is copied out.
			if !match(bytesView(line[bytes.LastIndexByte(line, '/')+1:])) {
				return true
			}
			rel := rgPath(line)
			return !reported.Regular(rel) || add(rel)
		})
		reported.Close()
	} else {
		w := newWalker(req.loc, req.fence, req.filter())
		err = w.walk(ctx, func(rel string) bool { return !match(path.Base(rel)) || add(rel) })
		w.warn(call)
	}
	if err != nil {
		return filesOut{}, err
	}
	req.warnMounts(call, eng)
	paths := runs.sorted()
	hits := make([]fileHit, len(paths))
	for i, p := range paths {
		hits[i] = fileHit{Path: fsroot.ShowName(p)}
	}
	if !complete {
		call.Warn("the search stopped at %d files; narrow it", fileCap)
	}
	// The answer with shown paths, but for the paths themselves.
	frame := func(shown int, handle string) filesOut {
		return filesOut{Hits: []fileHit{}, TotalHits: len(hits), Truncated: shown < len(hits), Complete: complete, Handle: handle, Root: req.loc.Abs(), Engine: eng}
	}
	shown, handle := tool.FitLines(ctx, call, "search_files", map[string]any{"kind": "search_files", "path": req.loc.Abs(), "root": req.loc.Root.Path, "pattern": in.Pattern},
		hits, in.MaxResults, func(shown int, handle string) any { return frame(shown, handle) })
	out := frame(shown, handle)
	if shown > 0 {
		out.Hits = hits[:shown]
	}
	return out, nil
}

// bytesView is b as a string without a copy, for a look that keeps
// nothing of it while b stays unchanged: 11,464 names of GOROOT/src were
// as many small allocations, only to be matched and dropped.
func bytesView(b []byte) string {
	return unsafe.String(unsafe.SliceData(b), len(b))
}
