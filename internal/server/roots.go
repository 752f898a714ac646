//lint:file-ignore SA1019 roots are deprecated by SEP-2577 but still served by clients (see clientRoots)

package server

import (
	"context"
	"errors"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// clientRoots keeps each client session's MCP roots, where the operator
// set client_roots = "narrow". A client's roots may only narrow the
// configured ones (fsroot.Set.ForCall).
//
// They are fetched when the session is initialized and again when the
// client says they changed, which spares each file tool call a round trip;
// a call that arrives before the fetch ended waits for it, briefly.
//
// The roots feature is deprecated by the protocol (SEP-2577) but still
// served by clients that follow the 2025 revisions. Narrowing is not the
// default: Claude Code lists the directory it was started in, and a server
// whose roots lie elsewhere then refused every file tool.
type clientRoots struct {
	mu      sync.Mutex
	known   map[*mcp.ServerSession]*rootsFetch
	allowed []string // the configured roots, to warn when a client's miss them all
	log     *slog.Logger
}

// rootsFetch is one roots/list exchange; ready closes when it ended.
type rootsFetch struct {
	ready chan struct{}
	paths []string
	err   error
}

// rootsWait bounds how long a call waits for a fetch, and the fetch itself.
const rootsWait = 5 * time.Second

// newClientRoots returns nil, which narrows nothing and asks no client,
// unless the operator set client_roots = "narrow".
func newClientRoots(cfg *config.Config, log *slog.Logger) *clientRoots {
	if cfg == nil || cfg.ClientRoots != config.ClientRootsNarrow {
		return nil
	}
	c := &clientRoots{known: map[*mcp.ServerSession]*rootsFetch{}, log: log}
	for _, r := range cfg.Roots {
		c.allowed = append(c.allowed, r.Path)
	}
	return c
}

// listen hooks the fetches to the session's lifecycle.
func (c *clientRoots) listen(o *mcp.ServerOptions) {
	if c == nil {
		return
	}
	o.InitializedHandler = func(_ context.Context, req *mcp.InitializedRequest) { c.fetch(req.Session) }
	o.RootsListChangedHandler = func(_ context.Context, req *mcp.RootsListChangedRequest) { c.fetch(req.Session) }
}

// fetch starts asking a session for its roots, replacing what was known.
func (c *clientRoots) fetch(ss *mcp.ServerSession) *rootsFetch {
	f := &rootsFetch{ready: make(chan struct{})}
	c.mu.Lock()
	_, seen := c.known[ss]
	c.known[ss] = f
	c.mu.Unlock()
	if !seen {
		go c.forgetWhenDone(ss)
	}
	go func() {
		defer close(f.ready)
		if !declaresRoots(ss) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), rootsWait)
		defer cancel()
		res, err := ss.ListRoots(ctx, &mcp.ListRootsParams{})
		if err != nil {
			f.err = err
			return
		}
		f.paths = filePaths(res.Roots)
		c.warnIfDisjoint(f.paths)
	}()
	return f
}

// forSession returns the ClientRootsFunc of one session.
func (c *clientRoots) forSession(ss *mcp.ServerSession) tool.ClientRootsFunc {
	if c == nil {
		return nil
	}
	return func(ctx context.Context) ([]string, bool, error) {
		if ss == nil || !declaresRoots(ss) {
			return nil, false, nil
		}
		c.mu.Lock()
		f := c.known[ss]
		c.mu.Unlock()
		if f == nil { // initialized not seen yet
			f = c.fetch(ss)
		}
		t := time.NewTimer(rootsWait)
		defer t.Stop()
		select {
		case <-f.ready:
		case <-t.C:
			return nil, true, errors.New("the client did not list its roots in time")
		case <-ctx.Done():
			return nil, true, ctx.Err()
		}
		return f.paths, true, f.err
	}
}

// warnIfDisjoint says once per listing, in the server's log, that a
// client's roots leave nothing to serve: every file tool call of that client
// will fail until it lists other roots or the operator stops narrowing.
func (c *clientRoots) warnIfDisjoint(paths []string) {
	if len(paths) == 0 {
		return
	}
	for _, p := range paths {
		for _, a := range c.allowed {
			if fsroot.Overlap(p, a) {
				return
			}
		}
	}
	c.log.Warn("the client's roots lie outside every allowed root; with client_roots = \"narrow\" its file tool calls will fail (set client_roots = \"ignore\" to serve the allowed roots whatever the client lists)",
		"client_roots", strings.Join(paths, ", "), "allowed", strings.Join(c.allowed, ", "))
}

// forgetWhenDone drops a session's entry when the session ends.
func (c *clientRoots) forgetWhenDone(ss *mcp.ServerSession) {
	_ = ss.Wait()
	c.mu.Lock()
	delete(c.known, ss)
	c.mu.Unlock()
}

// rootsLastProtocol is the last protocol revision in which a server may ask
// for roots with its own request; from 2026-07-28 on (SEP-2322, SEP-2577)
// roots are deprecated and may only travel inside a tool call's input
// requests, which no client fills in for roots, so hostmcp does not narrow.
const rootsLastProtocol = "2025-11-25"

// declaresRoots reports whether the client said at initialize that it has
// roots, on a protocol revision that lets us ask for them.
func declaresRoots(ss *mcp.ServerSession) bool {
	p := ss.InitializeParams()
	return p != nil && p.Capabilities != nil && p.Capabilities.RootsV2 != nil && p.ProtocolVersion <= rootsLastProtocol
}

// filePaths keeps the file:// roots as clean absolute paths; roots of other
// schemes name nothing on this host's filesystem.
func filePaths(roots []*mcp.Root) []string {
	paths := []string{}
	for _, r := range roots {
		u, err := url.Parse(r.URI)
		if err != nil || u.Scheme != "file" || (u.Host != "" && u.Host != "localhost") || !filepath.IsAbs(u.Path) {
			continue
		}
		paths = append(paths, filepath.Clean(u.Path))
	}
	return paths
}
