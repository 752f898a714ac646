// Package httpserve serves the MCP server over streamable HTTP with the
// protections a network listener needs: a bearer token, loopback by default,
// cross-origin and DNS-rebinding refusal, size limits and graceful shutdown.
package httpserve

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// Options configure the HTTP listener.
type Options struct {
	Addr           string // host:port; the host must be loopback unless Token is set
	Token          string // bearer token; required on a non-loopback address
	MaxBodyBytes   int64
	MaxHeaderBytes int
	Metrics        http.Handler // served at /metrics behind the token; nil leaves it out
	Logger         *slog.Logger
	// ShutdownGrace bounds how long in-flight calls may finish on shutdown.
	ShutdownGrace time.Duration
	// Ready, when set, receives the bound address once listening (tests use
	// port 0).
	Ready func(addr net.Addr)
	// Budget bounds the /mcp requests handled at once (429 beyond it, see
	// budget); nil leaves them unbounded.
	Budget *admit.Gate
}

// Serve listens and serves until ctx ends (the caller cancels it on SIGTERM
// or SIGINT), then shuts down gracefully.
func Serve(ctx context.Context, srv *mcp.Server, opts *Options) error {
	if err := CheckAddr(opts.Addr, opts.Token); err != nil {
		return err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return fmt.Errorf("listening on %s: %w", opts.Addr, err)
	}
	hs := &http.Server{
		Handler:           Handler(srv, opts),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if opts.Ready != nil {
		opts.Ready(ln.Addr())
	}
	log.Info("serving MCP over HTTP", "addr", ln.Addr().String(), "token", opts.Token != "")
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("serving HTTP: %w", err)
	case <-ctx.Done():
	}
	grace := opts.ShutdownGrace
	if grace <= 0 {
		grace = 10 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := hs.Shutdown(sctx); err != nil {
		return fmt.Errorf("shutting down HTTP: %w", err)
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// Handler routes /mcp, /healthz and /metrics, logging each request to
// opts.Logger when set. It is exported for tests that drive it with
// httptest. It adds a receiving middleware to srv, which ends
// a call when its client cancels it or hangs up (see inflight).
func Handler(srv *mcp.Server, opts *Options) http.Handler {
	streamable := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{
			// Stateless: clients on the newest protocol version are refused
			// by a stateful handler in this SDK version.
			Stateless:           true,
			MaxRequestBodyBytes: opts.MaxBodyBytes,
			Logger:              opts.Logger,
			// At 2026-07-28 closing the response stream is how a client
			// cancels a call over HTTP. For older revisions, which call a
			// disconnect no cancellation, inflight ends the call all the
			// same: nobody is left to read its answer, and a profile or a
			// trace must not run on for no one.
			PropagateRequestCancellation: true,
		})
	srv.AddReceivingMiddleware(followCarrier)
	limit := opts.MaxBodyBytes
	if limit <= 0 {
		limit = mcp.DefaultMaxRequestBodyBytes
	}
	auth := bearer(opts.Token)
	mux := http.NewServeMux()
	var mcpHandler http.Handler = http.NewCrossOriginProtection().Handler(newInflight().track(streamable, limit))
	if opts.Budget != nil {
		mcpHandler = budget(opts.Budget)(mcpHandler)
	}
	mux.Handle("/mcp", auth(mcpHandler))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte("ok\n"))
	})
	if opts.Metrics != nil {
		mux.Handle("GET /metrics", auth(opts.Metrics))
	}
	if opts.Logger == nil {
		return mux
	}
	return accessLog(opts.Logger, mux)
}
