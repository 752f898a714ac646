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
//
// Which root a file is in, and so whether it may be changed, is decided
// from the directories the kernel resolved (their device and inode against
// each root's), never from the path's spelling: a link or a bind mount
// from a read-write root into a read-only one leads into a read-only root.
//
// Hard links: a name inside a root is a file of that root. It can be read
// through that name whatever other names it has (the kernel's
// fs.protected_hardlinks, which start-up checks, keeps users from linking
// files they could not read, and hostmcp makes no links); a write replaces
// that name only, and only when asked to (allow_hardlink), so content the
// other names share, outside the roots or in a read-only root, never
// changes.
package fsroot

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Spec is one configured root: an absolute, cleaned directory with its
// symbolic links already resolved (config does that at load).
type Spec struct {
	Path     string
	ReadOnly bool
	// Alias is the path the operator wrote when it differs from Path (a
	// symbolic link to the root): paths given under it are accepted too.
	Alias string
}

// Root is one allowed directory, opened once.
type Root struct {
	Path     string
	ReadOnly bool
	Alias    string // the operator's spelling of Path, if it was a link
	r        *os.Root
	id       fileID
	real     string // Path as the kernel names the opened directory
}

// OS returns the *os.Root, for walkers that open entries themselves.
func (r *Root) OS() *os.Root { return r.r }

// Set is the allowed roots. It is safe for concurrent use.
type Set struct {
	roots []*Root
	owned []*os.Root // closed by Close; narrowed sets share their parent's
	ids   identities
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
		root := &Root{Path: filepath.Clean(sp.Path), ReadOnly: sp.ReadOnly, r: r}
		if sp.Alias != "" && filepath.IsAbs(sp.Alias) && filepath.Clean(sp.Alias) != root.Path {
			root.Alias = filepath.Clean(sp.Alias)
		}
		if err := s.identify(root); err != nil {
			s.Close()
			return nil, fmt.Errorf("opening root %s: %w", sp.Path, err)
		}
		s.roots = append(s.roots, root)
	}
	return s, nil
}

// identify records r's identity and its ancestors' in s.
func (s *Set) identify(r *Root) error {
	d, err := r.r.Open(".")
	if err != nil {
		return err
	}
	defer d.Close()
	r.real = r.Path
	if real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", d.Fd())); err == nil {
		r.real = real
	}
	return s.ids.add(r, d)
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
	set   *Set // the set it was resolved in: which roots it may lead to
	// dirOnly is set when the caller's path ended in "/": it names a
	// directory, and nothing may create or write a file by that name.
	dirOnly bool
}

// Abs is the absolute path for display: the root's path and Rel, cleaned
// lexically. Where Rel climbs through a symbolic link ("link/.."), the
// file the kernel resolves may lie elsewhere in the root; Abs is never
// used to reach a file.
func (l Loc) Abs() string {
	if l.Rel == "." {
		return l.Root.Path
	}
	return filepath.Join(l.Root.Path, l.Rel)
}

// IsRoot reports whether the location is a root itself.
func (l Loc) IsRoot() bool { return l.Rel == "." }

// maxPath is the longest path accepted: the kernel's PATH_MAX, counting
// its terminating NUL. A longer one could never be opened; refusing it up
// front keeps it out of the work and the messages below.
const maxPath = 4096

// Resolve maps a caller's path to the root it is resolved against and a
// path relative to it. Nothing here decides what the path leads to: ".."
// is kept for os.Root to resolve as the kernel would (after the symbolic
// links before it), and which root a file really lies in, so whether it
// may be changed, is decided when it is opened (writableIn), from the
// identities of the directories the kernel resolved.
//
// The root chosen is the innermost one that holds the path both up to
// its first ".." and as ".." would leave it lexically; failing that, the
// outermost one holding the part before "..", so that os.Root can still
// resolve "link/../x" through the link. A path ending in "/" must lead to
// a directory.
func (s *Set) Resolve(given string) (Loc, error) {
	if err := checkGiven(given); err != nil {
		return Loc{}, err
	}
	p, _ := unescapeName(given) // the form ShowName gives, or literal
	if strings.IndexByte(p, 0) >= 0 {
		return Loc{}, tool.Errorf(tool.InvalidPath, "path %q contains a NUL byte", tool.Clip(given))
	}
	if len(s.roots) == 0 {
		return Loc{}, tool.Errorf(tool.InvalidPath, "no allowed roots are configured (or the client's roots do not overlap them)").
			WithSuggestion("Ask the operator to add a root with --root or [[roots]].")
	}
	if !filepath.IsAbs(p) {
		p = s.roots[0].Path + "/" + p
	}
	parts := components(p)
	head := parts
	if i := slices.Index(parts, ".."); i >= 0 {
		head = parts[:i]
	}
	cleaned := components(filepath.Clean(p))
	var inner, outer *Root
	var innerN, outerN int
	for _, r := range s.roots {
		for _, name := range []string{r.Path, r.Alias} {
			n := prefixLen(components(name), head)
			if name == "" || n < 0 {
				continue
			}
			if prefixLen(components(name), cleaned) >= 0 && (inner == nil || n > innerN) {
				inner, innerN = r, n
			}
			if outer == nil || n < outerN {
				outer, outerN = r, n
			}
		}
	}
	if inner == nil {
		inner, innerN = outer, outerN
	}
	if inner == nil {
		return Loc{}, tool.Errorf(tool.InvalidPath, "path %q is outside the allowed roots (%s)", tool.Clip(given), s.names()).
			WithSuggestion("Use a path inside one of the allowed roots; relative paths are relative to %s.", s.roots[0].Path)
	}
	rel, err := inner.resolveDots(parts[innerN:], given)
	if err != nil {
		return Loc{}, err
	}
	l := Loc{Root: inner, Rel: rel, Given: given, set: s}
	if strings.HasSuffix(given, "/") {
		if st, err := l.Stat(); err == nil && !st.IsDir() {
			return Loc{}, tool.Errorf(tool.NotADirectory, "%q ends in \"/\" but is not a directory", tool.Clip(given)).
				WithSuggestion("Leave out the trailing slash to name a file.")
		}
		l.dirOnly = true
	}
	return l, nil
}

// resolveDots joins the names of a path relative to r. A ".." among them
// is resolved by the kernel, not cleaned away: the directory before the
// last ".." is opened through the root (which follows links as the kernel
// does, and refuses to leave the root) and its real name below the root
// read back, so "link/../x" means the parent of link's target, as it does
// in a shell. The result never holds "..": code below sees one clean name.
func (r *Root) resolveDots(parts []string, given string) (string, error) {
	last := -1
	for i, p := range parts {
		if p == ".." {
			last = i
		}
	}
	if last < 0 {
		if len(parts) == 0 {
			return ".", nil
		}
		return strings.Join(parts, "/"), nil
	}
	dir, err := r.r.OpenFile(strings.Join(parts[:last+1], "/"), os.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", pathError("resolving", given, err)
	}
	defer dir.Close()
	real, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", dir.Fd()))
	if err != nil {
		return "", tool.Wrap(tool.InvalidPath, err, "cannot resolve \"..\" in %q here", tool.Clip(given)).
			WithSuggestion("Give the path without \"..\".")
	}
	rel, ok := within(r.real, real)
	if !ok {
		return "", tool.Errorf(tool.InvalidPath, "path %q leads outside the allowed roots (through \"..\")", tool.Clip(given))
	}
	rest := parts[last+1:]
	if rel != "." {
		rest = append([]string{rel}, rest...)
	}
	if len(rest) == 0 {
		return ".", nil
	}
	return strings.Join(rest, "/"), nil
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

// checkGiven refuses what no file can be called: an empty or blank path,
// one longer than the kernel takes, or one holding a NUL.
func checkGiven(given string) error {
	switch {
	case strings.TrimSpace(given) == "":
		return tool.Errorf(tool.InvalidPath, "path is empty or only white space").
			WithSuggestion("Pass an absolute path inside the allowed roots, or one relative to the first root.")
	case len(given) >= maxPath:
		return tool.Errorf(tool.InvalidPath, "path of %d bytes is longer than the %d bytes the kernel accepts: %q", len(given), maxPath-1, tool.Clip(given))
	case strings.IndexByte(given, 0) >= 0:
		return tool.Errorf(tool.InvalidPath, "path %q contains a NUL byte", tool.Clip(given))
	}
	return nil
}

// components splits an absolute path into its names, leaving out empty
// ones and "." but keeping "..".
func components(p string) []string {
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return out
}

// prefixLen is len(prefix) when prefix is a leading part of parts, else -1.
func prefixLen(prefix, parts []string) int {
	if len(prefix) > len(parts) || !slices.Equal(prefix, parts[:len(prefix)]) {
		return -1
	}
	return len(prefix)
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
