package search

import (
	"context"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// hitCap bounds the hits one search collects (returned plus handle); the
// search stops there, while streaming, and says it is incomplete.
const hitCap = 10_000

type contentIn struct {
	Path           string `json:"path,omitempty" jsonschema:"directory (default: the first root)"`
	Pattern        string `json:"pattern" jsonschema:"RE2 regex, per line; plain text with literal"`
	Literal        bool   `json:"literal,omitempty"`
	IgnoreCase     *bool  `json:"ignore_case,omitempty" jsonschema:"default: ignored unless pattern has upper case"`
	ContextLines   *int   `json:"context_lines,omitempty" jsonschema:"lines around each hit" default:"3"`
	FileGlob       string `json:"file_glob,omitempty" jsonschema:"only paths matching this gitignore glob; !glob excludes"`
	MaxResults     int    `json:"max_results,omitempty" jsonschema:"hits shown; fewer when more would pass the output cap; all found, up to 10000, go to a handle" default:"100"`
	IncludeHidden  bool   `json:"include_hidden,omitempty"`
	IncludeIgnored bool   `json:"include_ignored,omitempty"`
	CrossMounts    bool   `json:"cross_mounts,omitempty" jsonschema:"enter mounted file systems"`
	Engine         string `json:"engine,omitempty" jsonschema:"auto: rg if installed" default:"auto"`
}

type contentOut struct {
	Hits      []Hit  `json:"hits" jsonschema:"sorted by path and line"`
	TotalHits int    `json:"total_hits" jsonschema:"matching lines found (a lower bound when complete is false)"`
	Truncated bool   `json:"truncated"`
	Complete  bool   `json:"complete" jsonschema:"false when the search stopped at 10000 hits"`
	Handle    string `json:"handle,omitempty" jsonschema:"every hit found, one JSON object per line, for handle_read"`
	Root      string `json:"root" jsonschema:"absolute directory searched; hit paths are relative to it"`
	Engine    string `json:"engine" jsonschema:"rg or native"`
}

func (s *Set) content() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "search_content",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Search file contents",
		Description: "Search text files under a directory for a regex or literal, honouring .gitignore; hits with context lines, fewer than max_results when more would pass the output cap, every hit in a handle.",
	}, s.handleContent).WithRange("context_lines", 0, 10).WithRange("max_results", 0, 1000).WithEnum("engine", "auto", "rg", "native").
		WithMaxLength("pattern", maxPattern).WithMaxLength("file_glob", maxPattern).
		WithAlias("root", "path").WithOpposite("case_sensitive", "ignore_case")
}

// searchReq is a validated search_content call. Close it when done.
type searchReq struct {
	loc   fsroot.Loc
	opt   options
	fence *fsroot.Fence // keeps both engines on the root's file system
	// mounts names, for the warning, what rg's --one-file-system left out.
	mounts *mountTable
	bufs   *bufPool
	re     *regexp.Regexp
	sc     *scanner
	limit  int
	// ignoreCase is the case rule both engines apply.
	ignoreCase bool
}

func (s *Set) handleContent(ctx context.Context, call *tool.Call, in contentIn) (contentOut, error) {
	eng, err := s.engine(in.Engine)
	if err != nil {
		return contentOut{}, err
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return contentOut{}, err
	}
	defer release()
	req, err := s.prepare(roots, in)
	if err != nil {
		return contentOut{}, err
	}
	defer req.close()
	var hits []Hit
	complete := true
	if eng == "rg" {
		hits, complete, err = s.contentRg(ctx, req, in, call)
	} else {
		hits, complete, err = contentNative(ctx, req, call)
	}
	if err != nil {
		return contentOut{}, err
	}
	req.warnMounts(call, eng)
	return req.answer(ctx, call, in.Pattern, hits, complete, eng), nil
}

// answer is the answer of a search that found hits (all of them, when
// complete): sorted, their paths shown escaped, as many shown as the
// output cap and max_results allow, and every one in a handle when fewer
// are shown.
func (req *searchReq) answer(ctx context.Context, call *tool.Call, pattern string, hits []Hit, complete bool, eng string) contentOut {
	sortHits(hits)
	for i := range hits {
		hits[i].Path = fsroot.ShowName(hits[i].Path)
	}
	if !complete {
		call.Warn("the search stopped at %d hits; narrow it with a more specific pattern, file_glob or root", hitCap)
	}
	// The answer with shown hits, but for the hits themselves.
	frame := func(shown int, handle string) contentOut {
		return contentOut{Hits: []Hit{}, TotalHits: len(hits), Truncated: shown < len(hits), Complete: complete, Handle: handle, Root: req.loc.Abs(), Engine: eng}
	}
	shown, handle := tool.FitLines(ctx, call, "search_hits", map[string]any{"kind": "search_hits", "path": req.loc.Abs(), "root": req.loc.Root.Path, "pattern": pattern},
		hits, req.limit, func(shown int, handle string) any { return frame(shown, handle) })
	out := frame(shown, handle)
	if shown > 0 {
		out.Hits = hits[:shown]
	}
	return out
}

func (s *Set) prepare(roots *fsroot.Set, in contentIn) (*searchReq, error) {
	if in.MaxResults == 0 {
		in.MaxResults = 100
	}
	ctxLines := 3
	if in.ContextLines != nil {
		ctxLines = *in.ContextLines
	}
	if ctxLines < 0 || ctxLines > 10 || in.MaxResults < 1 || in.MaxResults > 1000 {
		return nil, tool.Errorf(tool.InvalidArgument, "context_lines must be 0 to 10 and max_results 1 to 1000")
	}
	if strings.Contains(in.Pattern, "\n") || (!in.Literal && strings.Contains(in.Pattern, `\n`)) {
		return nil, tool.Errorf(tool.InvalidArgument, "pattern must not match a line break: lines are searched one at a time")
	}
	expr := in.Pattern
	if in.Literal {
		expr = regexp.QuoteMeta(expr)
	}
	ignoreCase := !hasUpper(in.Pattern, in.Literal)
	if in.IgnoreCase != nil {
		ignoreCase = *in.IgnoreCase
	}
	flags := "m"
	if ignoreCase {
		flags = "mi"
	}
	re, err := tool.CompileRegexp("pattern", expr, flags)
	if err != nil {
		return nil, err
	}
	if _, err := compileGlob(in.FileGlob); err != nil {
		return nil, err
	}
	root := in.Path
	if root == "" {
		root = "."
	}
	loc, err := roots.Resolve(root)
	if err != nil {
		return nil, err
	}
	fence, err := loc.Fence(in.CrossMounts)
	if err != nil {
		return nil, err
	}
	return &searchReq{
		loc:    loc,
		opt:    options{hidden: in.IncludeHidden, noIgnore: in.IncludeIgnored, glob: in.FileGlob, cross: in.CrossMounts},
		fence:  fence,
		mounts: s.mounts,
		bufs:   s.bufs,
		re:     re,
		sc:     &scanner{re: re, ctx: ctxLines},
		limit:  in.MaxResults,

		ignoreCase: ignoreCase,
	}, nil
}

// hasUpper reports whether a pattern asks for upper case, as ripgrep's
// smart case reads it: an upper-case letter in the text, not in an escape
// (\S, \W, \pL, \p{Greek}, \x{41}), a flag group or a group name.
func hasUpper(pattern string, literal bool) bool {
	if literal {
		return strings.IndexFunc(pattern, unicode.IsUpper) >= 0
	}
	for i := 0; i < len(pattern); {
		r, size := utf8.DecodeRuneInString(pattern[i:])
		switch {
		case r == '\\' && i+1 < len(pattern):
			esc := pattern[i+1]
			i += 2
			if esc == 'p' || esc == 'P' || esc == 'x' {
				if strings.HasPrefix(pattern[i:], "{") {
					if j := strings.IndexByte(pattern[i:], '}'); j >= 0 {
						i += j + 1
					}
				} else if esc != 'x' && i < len(pattern) {
					i++ // \pL: a one-letter class name
				}
			}
			continue
		case strings.HasPrefix(pattern[i:], "(?"):
			if j := strings.IndexAny(pattern[i:], ":)>"); j >= 0 {
				i += j + 1
				continue
			}
		case unicode.IsUpper(r):
			return true
		}
		i += size
	}
	return false
}

// contentRg lets ripgrep find candidate lines (walking, ignore files,
// binary detection and the fast scan), then reads each candidate file
// through the root to check the lines and build the snippets: what is
// shown never comes from a path rg may have reached through a link swapped
// in during its walk. rg prints each file's lines together, so a file is
// checked as soon as the next one begins, while rg goes on searching.
func (s *Set) contentRg(ctx context.Context, req *searchReq, in contentIn, call *tool.Call) ([]Hit, bool, error) {
	args := rgContentArgs(req.rgOptions(), in, req.ignoreCase)
	reported := req.fence.Reported()
	defer reported.Close()
	v := startVerify(ctx, req, reported)
	var file string
	var lines []int
	n := 0
	complete := true
	var records rgRecords // a path holding a newline comes in lines
	_, err := runRg(ctx, s.exec, req.loc, args, false, func(line []byte) bool {
		rec, ok := records.join(line)
		if !ok {
			return true
		}
		p, ln, ok := parseRgLine(rec, file)
		if !ok {
			return true
		}
		if p != file {
			v.check(file, lines)
			file, lines = p, nil
		}
		lines = append(lines, ln)
		n++
		if n == req.limit+1 {
			call.HandleLikely("search_hits") // likely more hits than are shown
		}
		if n > hitCap {
			complete = false
			return false
		}
		return true
	})
	v.check(file, lines)
	hits := v.wait()
	if err != nil {
		return nil, false, err
	}
	if records.dropped > 0 {
		call.Warn("%d lines rg reported were left out: their file's path was longer than %d bytes (PATH_MAX)", records.dropped, rgPathMax)
	}
	return hits, complete && len(hits) <= hitCap, nil
}

// rgContentArgs is rg's argv for a content search: each candidate line as
// its file's path, a NUL and its number, without the line itself.
func rgContentArgs(o *options, in contentIn, ignoreCase bool) []string {
	args := append(rgBase(o), "--null", "--line-number", "--with-filename", "--no-heading", "--max-columns=1")
	if in.Literal {
		args = append(args, "--fixed-strings")
	}
	if ignoreCase {
		args = append(args, "--ignore-case")
	}
	return append(args, "--regexp="+in.Pattern)
}

func join(base, rel string) string {
	if base == "." {
		return rel
	}
	return base + "/" + rel
}
