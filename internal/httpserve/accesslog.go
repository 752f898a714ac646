package httpserve

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// exchange is what the access log learns about one request as it passes
// through the handlers: tracking fills in the MCP method and tool it read
// from the body. Its arguments are never kept.
type exchange struct {
	mcpMethod string
	tool      string
}

type exchangeKey struct{}

// noteMessage records the JSON-RPC method of the request being served, and
// the tool a tools/call names, for its access log line.
func noteMessage(ctx context.Context, m *message) {
	x, ok := ctx.Value(exchangeKey{}).(*exchange)
	if !ok {
		return
	}
	x.mcpMethod = tool.Clip(m.Method)
	if m.Method == "tools/call" {
		x.tool = tool.Clip(m.Params.Name)
	}
}

// accessLog writes one line per request once it is answered: method, path,
// MCP method, tool, status, duration and the peer's address. Headers (the
// token), the body and the tool's arguments are never logged, and the
// client's words (method, tool name) are clipped and quoted by the text
// handler. /healthz, which supervisors poll, is logged at debug.
func accessLog(log *slog.Logger, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		x := &exchange{}
		sw := &statusWriter{ResponseWriter: w}
		next.ServeHTTP(sw, r.WithContext(context.WithValue(r.Context(), exchangeKey{}, x)))
		level := slog.LevelInfo
		if r.URL.Path == "/healthz" {
			level = slog.LevelDebug
		}
		if !log.Enabled(r.Context(), level) {
			return
		}
		attrs := []slog.Attr{
			slog.String("method", r.Method),
			slog.String("path", tool.Clip(r.URL.Path)),
		}
		if x.mcpMethod != "" {
			attrs = append(attrs, slog.String("mcp_method", x.mcpMethod))
		}
		if x.tool != "" {
			attrs = append(attrs, slog.String("tool", x.tool))
		}
		attrs = append(attrs,
			slog.Int("status", sw.status()),
			slog.Int64("duration_ms", time.Since(start).Milliseconds()),
			slog.String("remote", r.RemoteAddr))
		log.LogAttrs(context.Background(), level, "http request", attrs...)
	})
}

// statusWriter remembers the status a handler answered with. It passes
// flushes through (the streamable transport answers with server-sent
// events) and unwraps for http.ResponseController.
type statusWriter struct {
	http.ResponseWriter
	code int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Flush() {
	if w.code == 0 {
		w.code = http.StatusOK
	}
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// status is the answered status; a handler that wrote nothing answered 200.
func (w *statusWriter) status() int {
	if w.code == 0 {
		return http.StatusOK
	}
	return w.code
}
