package fsroot

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Narrow returns the intersection of this set with a client's MCP roots
// (absolute paths, from file:// URIs). A client root inside an allowed root
// becomes a root of its own, opened through the allowed one so the kernel
// still enforces containment; a client root that contains an allowed root
// keeps that root as it is; anything else is dropped. The result never
// reaches further than s. It shares s's open roots: close s, not it.
func (s *Set) Narrow(client []string) *Set {
	out := &Set{ids: s.ids.clone()}
	seen := map[string]bool{}
	add := func(r *Root) {
		if !seen[r.Path] {
			seen[r.Path] = true
			out.roots = append(out.roots, r)
		}
	}
	for _, c := range client {
		if !filepath.IsAbs(c) {
			continue
		}
		c = filepath.Clean(c)
		for _, r := range s.roots {
			if _, ok := within(c, r.Path); ok { // the client root contains r
				add(r)
				continue
			}
			rel, ok := within(r.Path, c)
			if !ok {
				continue
			}
			sub, err := r.r.OpenRoot(rel) // refuses a symlink out of r
			if err != nil {
				continue
			}
			out.owned = append(out.owned, sub)
			nr := &Root{Path: c, ReadOnly: r.ReadOnly, r: sub}
			if out.identify(nr) != nil {
				continue
			}
			add(nr)
		}
	}
	return out
}

// Overlap reports whether one of two absolute, clean paths holds the other:
// a client root that overlaps an allowed root leaves something to serve.
func Overlap(a, b string) bool {
	_, inA := within(a, b)
	_, inB := within(b, a)
	return inA || inB
}

// ForCall is the set one call may use: s itself, or s narrowed to the
// calling client's MCP roots when the client listed any file:// roots (a
// client that lists none has told us nothing to narrow to). release frees
// what narrowing opened; call it when the call is done. A client whose
// roots all lie outside s gets an error rather than s: narrowing never
// widens, so it must not silently fall back either.
func (s *Set) ForCall(ctx context.Context, call *tool.Call) (set *Set, release func(), err error) {
	paths, declared, err := call.ClientRoots(ctx)
	if err != nil {
		return nil, nil, tool.Wrap(tool.ExecutionFailed, err, "asking the client for its roots: %v", err).
			WithSuggestion("The client declared MCP roots but did not list them; retry, or reconnect the client.")
	}
	if !declared || len(paths) == 0 {
		return s, func() {}, nil
	}
	n := s.Narrow(paths)
	if len(n.roots) == 0 {
		n.Close()
		return nil, nil, tool.Errorf(tool.InvalidPath, "none of the client's roots (%s) lies inside the roots this server allows (%s), and the server narrows to them (client_roots = \"narrow\")", tool.Clip(strings.Join(paths, ", ")), s.names()).
			WithSuggestion("Open a workspace inside one of the server's roots, or ask the operator to set client_roots = \"ignore\" (the default) or to allow it (--root).")
	}
	return n, func() { n.Close() }, nil
}
