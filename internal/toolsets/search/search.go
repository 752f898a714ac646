// Package search is the search toolset of spec 003: file names and file
// contents under a directory inside the allowed roots. Contents are
// searched by ripgrep when it is installed and by a native walker with the
// same semantics when it is not; either way every byte shown was read
// through the *os.Root of its root, and rg itself runs confined by
// Landlock to the searched directory where the kernel allows it.
package search

import (
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the search tools work through. Exec may be nil, or lack
// rg: the native engine is used then.
type Deps struct {
	Roots *fsroot.Set
	Exec  *execx.Runner
}

// Set is the search toolset.
type Set struct {
	roots  *fsroot.Set
	exec   *execx.Runner
	mounts *mountTable // for the warnings of rg searches
	bufs   *bufPool    // the checking goroutines' read buffers, kept between searches
}

// New builds the search toolset.
func New(d *Deps) *Set {
	return &Set{roots: d.Roots, exec: d.Exec, mounts: &mountTable{}, bufs: &bufPool{}}
}

// Toolset lists the search tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "search",
		Description:    "Find files by name and search file contents under the allowed roots.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.files(), s.content()},
	}
}

// options are the walk settings both engines share.
type options struct {
	hidden   bool
	noIgnore bool
	glob     string
	// cross lets the walk enter file systems mounted below the search
	// root; without it both engines stay on the root's (rg with
	// --one-file-system, the native walker through its fsroot.Fence).
	cross bool
	// flat says nothing but the root's file system lies below it
	// (searchReq.flatBelow), where --one-file-system changes nothing rg
	// walks and is left out.
	flat bool
}

// engine picks rg or the native walker from the caller's choice.
func (s *Set) engine(choice string) (string, error) {
	hasRg := s.exec != nil && s.exec.Available("rg")
	switch choice {
	case "", "auto":
		if hasRg {
			return "rg", nil
		}
		return "native", nil
	case "rg":
		if !hasRg {
			return "", tool.Errorf(tool.ToolNotFound, "ripgrep (rg) is not installed on this host").
				WithSuggestion("Use engine auto or native.")
		}
		return "rg", nil
	case "native":
		return "native", nil
	}
	return "", tool.Errorf(tool.InvalidArgument, "engine must be auto, rg or native, not %q", tool.Clip(choice))
}

// maxPattern bounds pattern and file_glob, in characters: 4096, the
// kernel's PATH_MAX, as every path argument. A pattern an agent writes is
// tens of characters and a long alternation of names a few hundred; a
// search that needs more is better narrowed than enumerated. Each
// character costs compile time here and in ripgrep, and a 3 MB pattern
// once took 1 GB to compile before ripgrep's argv refused it (128 KiB per
// argument at most).
const maxPattern = 4096

// compileGlob checks a file_glob the way both engines read it.
func compileGlob(g string) (*glob, error) {
	if g == "" {
		return nil, nil
	}
	gl, ok, err := parseGlob(g)
	if err != nil || !ok {
		return nil, tool.Errorf(tool.InvalidArgument, "file_glob %q is not a valid glob", tool.Clip(g))
	}
	return &gl, nil
}
