package fleet_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/app"
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/httpserve"
	"github.com/hostmcp/hostmcp/internal/server"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// token is the fleet's bearer token in these tests; a host may be given
// another to refuse it.
const token = "fleet-test-token-0123456789abcdef"

// liveHost is a real hostmcp (app.Open, the server and its HTTP handler,
// as `hostmcp serve --http` builds them) on a loopback port.
type liveHost struct {
	Base string // http://127.0.0.1:PORT
	Addr string // 127.0.0.1:PORT
	// calls counts the tools/call requests that reached its /mcp.
	calls *callCounter
}

// hostOpts shape a live host.
type hostOpts struct {
	Token string // default token
	// Proc and Sys replace the host's /proc and /sys ([host] proc, sys),
	// for a host whose health a test decides.
	Proc, Sys string
	// Toolsets, when set, replaces the served toolsets of the whole
	// catalogue by these (a host of another build, say).
	Toolsets []tool.Toolset
	// Gate, when set, sees every tools/call request come and go.
	Gate *inflightGate
}

// startHost serves a real hostmcp over HTTP until the test ends.
func startHost(tb testing.TB, o hostOpts) *liveHost {
	tb.Helper()
	cfg := config.Default(tb.TempDir(), 0, func(string) string { return "" })
	cfg.StateDir = tb.TempDir()
	if o.Proc != "" {
		cfg.Host.Proc, cfg.Host.Sys = o.Proc, o.Sys
	}
	var srv *server.Server
	var metrics http.Handler
	if o.Toolsets != nil {
		st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(cfg.StateDir, "s.db")})
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { st.Close() })
		cfg.Confirm.Tools = nil
		if srv, err = server.New(server.Options{Config: cfg, Store: st, Toolsets: o.Toolsets}); err != nil {
			tb.Fatal(err)
		}
	} else {
		a, err := app.Open(context.Background(), cfg, "test", nil)
		if err != nil {
			tb.Fatal(err)
		}
		tb.Cleanup(func() { a.Close() })
		srv = a.Server
	}
	metrics = srv.Metrics().Handler()
	tok := o.Token
	if tok == "" {
		tok = token
	}
	h := &liveHost{calls: &callCounter{gate: o.Gate}}
	ts := httptest.NewServer(h.calls.wrap(httpserve.Handler(srv.MCP(), &httpserve.Options{Token: tok, Metrics: metrics})))
	tb.Cleanup(ts.Close)
	h.Base = ts.URL
	h.Addr = strings.TrimPrefix(ts.URL, "http://")
	return h
}

// closedAddr is a loopback address where nothing listens: a host that is
// down.
func closedAddr(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// callCounter counts the tools/call requests reaching a host's /mcp and
// hands them to its gate.
type callCounter struct {
	mu    sync.Mutex
	n     int
	gate  *inflightGate
	delay time.Duration
}

func (c *callCounter) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (c *callCounter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if !bytes.Contains(body, []byte(`"method":"tools/call"`)) {
			next.ServeHTTP(w, r)
			return
		}
		c.mu.Lock()
		c.n++
		delay := c.delay
		c.mu.Unlock()
		if c.gate != nil {
			defer c.gate.enter()()
		}
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-r.Context().Done():
				return // the client gave up: the host never answers
			}
		}
		next.ServeHTTP(w, r)
	})
}

// inflightGate sees the tools/call requests of several hosts: how many
// are in flight at once at most. Each request waits, before it is served,
// until want are in flight (or a few seconds pass), so that a fan-out that
// keeps to its bound shows exactly want at once, and one that does not
// shows more, whatever the machine's speed.
type inflightGate struct {
	want int

	mu       sync.Mutex
	inflight int
	peak     int
	full     chan struct{} // closed when inflight reaches want
}

func newGate(want int) *inflightGate {
	return &inflightGate{want: want, full: make(chan struct{})}
}

// enter counts a request in and returns its exit.
func (g *inflightGate) enter() func() {
	g.mu.Lock()
	g.inflight++
	g.peak = max(g.peak, g.inflight)
	if g.inflight >= g.want {
		select {
		case <-g.full:
		default:
			close(g.full)
		}
	}
	full := g.full
	g.mu.Unlock()
	select {
	case <-full:
	case <-time.After(5 * time.Second):
	}
	return func() {
		g.mu.Lock()
		g.inflight--
		if g.inflight < g.want {
			select {
			case <-g.full:
				g.full = make(chan struct{})
			default:
			}
		}
		g.mu.Unlock()
	}
}

func (g *inflightGate) max() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.peak
}

// fleetHost is the hostmcp an agent talks to, with the fleet toolset and
// the given [fleet] settings; its token file holds token.
func fleetHost(tb testing.TB, mutate func(f *config.FleetConf)) *app.App {
	tb.Helper()
	cfg := config.Default(tb.TempDir(), 0, func(string) string { return "" })
	cfg.StateDir = tb.TempDir()
	cfg.Toolsets.Enabled = []string{"fleet"}
	cfg.Fleet.TokenFile = filepath.Join(tb.TempDir(), "fleet.token")
	if err := os.WriteFile(cfg.Fleet.TokenFile, []byte(token+"\n"), 0o600); err != nil {
		tb.Fatal(err)
	}
	mutate(&cfg.Fleet)
	if err := cfg.Validate(); err != nil {
		tb.Fatal(err)
	}
	a, err := app.Open(context.Background(), cfg, "test", nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { a.Close() })
	return a
}

// call runs a tool of the fleet hostmcp as a client's call runs it.
func call(tb testing.TB, a *app.App, name string, args any) tool.Result {
	tb.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatal(err)
	}
	res, err := a.Server.Call(context.Background(), name, raw)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// data decodes a successful result's data.
func data[T any](tb testing.TB, res tool.Result) T {
	tb.Helper()
	var v T
	if res.Err != nil {
		tb.Fatalf("%s: %v", res.Envelope.Tool, res.Err)
	}
	if err := json.Unmarshal(res.Envelope.Data, &v); err != nil {
		tb.Fatalf("decoding %s: %v", res.Envelope.Data, err)
	}
	return v
}
