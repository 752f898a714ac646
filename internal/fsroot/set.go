// Package fsroot is the boundary every file tool works through: a set of
// allowed roots, each opened once as an *os.Root, so that containment is
// enforced by the kernel (openat with no escape through ".." or symbolic
// links) and not by comparing strings. It also covers what os.Root leaves
// open: special files, hard links, renames over existing targets and the
// roots themselves (DESIGN.md section 4).
//
// Paths given by the agent are absolute, or relative to the first root.
// Errors name the path the caller gave and never a resolved path outside
// the roots.
package fsroot

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Spec is one configured root: an absolute, cleaned directory with its
// symbolic links already resolved (config does that at load).
type Spec struct {
	Path     string
	ReadOnly bool
}

// Root is one allowed directory, opened once.
type Root struct {
	Path     string
	ReadOnly bool
	r        *os.Root
}

// OS returns the *os.Root, for walkers that open entries themselves.
func (r *Root) OS() *os.Root { return r.r }

// Set is the allowed roots. It is safe for concurrent use.
type Set struct {
	roots []*Root
	owned []*os.Root // closed by Close; narrowed sets share their parent's
}

// Open opens every root. A root that cannot be opened is an error: the
// operator named it, and silently serving fewer roots would hide that.
func Open(specs []Spec) (*Set, error) {
	s := &Set{}
	for _, sp := range specs {
		if !filepath.IsAbs(sp.Path) {
			s.Close()
			return nil, fmt.Errorf("root %q is not absolute", sp.Path)
		}
		r, err := os.OpenRoot(sp.Path)
		if err != nil {
			s.Close()
			return nil, fmt.Errorf("opening root %s: %w", sp.Path, err)
		}
		s.owned = append(s.owned, r)
		s.roots = append(s.roots, &Root{Path: filepath.Clean(sp.Path), ReadOnly: sp.ReadOnly, r: r})
	}
	return s, nil
}

// Close releases the roots this set opened.
func (s *Set) Close() error {
	for _, r := range s.owned {
		r.Close()
	}
	s.owned = nil
	return nil
}

// Roots lists the roots in configuration order; the first is the base of
// relative paths.
func (s *Set) Roots() []*Root { return s.roots }

// Loc is a path resolved to its root: Rel is slash-free of ".." and
// relative to Root.Path ("." for the root itself). Given is what the caller
// wrote, the only name errors use.
type Loc struct {
	Root  *Root
	Rel   string
	Given string
}

// Abs is the lexical absolute path, inside the root by construction.
func (l Loc) Abs() string {
	if l.Rel == "." {
		return l.Root.Path
	}
	return filepath.Join(l.Root.Path, l.Rel)
}

// IsRoot reports whether the location is a root itself.
func (l Loc) IsRoot() bool { return l.Rel == "." }

// Resolve maps a caller's path to a root and a relative path by lexical
// containment of the cleaned absolute path; the most specific root wins, so
// a read-only root nested in a writable one stays read-only. Whether the
// path really stays inside (symbolic links) is left to the kernel when the
// path is opened through the root.
func (s *Set) Resolve(given string) (Loc, error) {
	if given == "" {
		return Loc{}, tool.Errorf(tool.InvalidPath, "path is empty").
			WithSuggestion("Pass an absolute path inside the allowed roots, or one relative to the first root.")
	}
	if strings.IndexByte(given, 0) >= 0 {
		return Loc{}, tool.Errorf(tool.InvalidPath, "path %q contains a NUL byte", given)
	}
	if len(s.roots) == 0 {
		return Loc{}, tool.Errorf(tool.InvalidPath, "no allowed roots are configured (or the client's roots do not overlap them)").
			WithSuggestion("Ask the operator to add a root with --root or [[roots]].")
	}
	p := given
	if !filepath.IsAbs(p) {
		p = filepath.Join(s.roots[0].Path, p)
	}
	p = filepath.Clean(p)
	var best *Root
	rel := ""
	for _, r := range s.roots {
		if rr, ok := within(r.Path, p); ok && (best == nil || len(r.Path) > len(best.Path)) {
			best, rel = r, rr
		}
	}
	if best == nil {
		return Loc{}, tool.Errorf(tool.InvalidPath, "path %q is outside the allowed roots (%s)", given, s.names()).
			WithSuggestion("Use a path inside one of the allowed roots; relative paths are relative to %s.", s.roots[0].Path)
	}
	return Loc{Root: best, Rel: rel, Given: given}, nil
}

// within returns p relative to root when p is root or below it. Comparing
// with a trailing separator keeps /srv/data2 out of /srv/data.
func within(root, p string) (string, bool) {
	if p == root {
		return ".", true
	}
	prefix := root
	if !strings.HasSuffix(prefix, "/") {
		prefix += "/"
	}
	if !strings.HasPrefix(p, prefix) {
		return "", false
	}
	return p[len(prefix):], true
}

func (s *Set) names() string {
	n := make([]string, len(s.roots))
	for i, r := range s.roots {
		n[i] = r.Path
		if r.ReadOnly {
			n[i] += " (read-only)"
		}
	}
	return strings.Join(n, ", ")
}

// containsRoot reports whether l is, or is an ancestor of, any root: such a
// path is never deleted or moved away.
func (s *Set) containsRoot(l Loc) bool {
	abs := l.Abs()
	for _, r := range s.roots {
		if _, ok := within(abs, r.Path); ok {
			return true
		}
	}
	return false
}

// Writable refuses a write into a read-only root.
func (l Loc) Writable() error {
	if l.Root.ReadOnly {
		return tool.Errorf(tool.ReadOnlyMode, "path %q is in the read-only root %s", l.Given, l.Root.Path).
			WithSuggestion("Write inside a writable root; the operator marks roots read-only with :ro.")
	}
	return nil
}
