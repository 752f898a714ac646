package httpserve

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"net/http"
	"strconv"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// Bounds of the lane pings take past a full budget.
const (
	maxPingBytes = 512 // {"jsonrpc":"2.0","id":...,"method":"ping"} is about 45
	pingLane     = 8
)

// budget bounds the /mcp requests handled at once by the gate's size. A
// request beyond it is answered 429 with Retry-After before its body is
// read or the MCP layer sees it, so a flood costs at most the budget's
// worth of bodies and sessions. A ping still gets through, a few at a time
// on a lane of its own, when its body is small enough to read whole: a
// client's liveness check must not fail because the server is busy
// working. Anything else the lane reads is refused all the same.
func budget(g *admit.Gate) func(http.Handler) http.Handler {
	lane := admit.NewGate(admit.GateOptions{Name: "ping", Size: pingLane})
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if release, ok := g.TryEnter(); ok {
				defer release()
				next.ServeHTTP(w, r)
				return
			}
			if release, ok := lane.TryEnter(); ok {
				defer release()
				if isPing(r) {
					next.ServeHTTP(w, r)
					return
				}
			}
			tooMany(w, g.Refuse())
		})
	}
}

// tooMany answers 429 with the refusal's message and its retry time in
// whole seconds, rounded up (RFC 9110 Retry-After).
func tooMany(w http.ResponseWriter, ref *admit.Refusal) {
	secs := max(1, int(math.Ceil(ref.RetryAfter.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	http.Error(w, ref.Message+"; retry after "+strconv.Itoa(secs)+" s", http.StatusTooManyRequests)
}

// isPing reads a body of a declared length up to maxPingBytes and reports
// whether it is one JSON-RPC ping; the body is handed back to the request
// either way. A body of unknown or larger length is not read.
func isPing(r *http.Request) bool {
	if r.Method != http.MethodPost || r.ContentLength < 0 || r.ContentLength > maxPingBytes {
		return false
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxPingBytes+1))
	r.Body = io.NopCloser(bytes.NewReader(b))
	if err != nil || len(b) > maxPingBytes {
		return false
	}
	var msg struct {
		Method string `json:"method"`
	}
	return json.Unmarshal(b, &msg) == nil && msg.Method == "ping"
}
