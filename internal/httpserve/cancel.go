package httpserve

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// In stateless mode every POST is a session of its own, and the SDK (v1.8)
// detaches a call's context from its HTTP request for protocols before
// 2026-07-28: a client that hangs up, or that sends notifications/cancelled
// (which arrives on another POST, in another session, where the SDK finds
// no such call), stops nothing, and perf or bpftrace ran on to the end.
// inflight ties the two back together: each call's POST carries a context that
// ends when the client goes away or cancels that call, and the server's
// receiving middleware (followCarrier) ends the call's own context with it.

// errCancelledByClient is why a call's context ended on notifications/cancelled.
var errCancelledByClient = errors.New("cancelled by the client")

// carrierKey keys the POST's context in the call's context values, which
// the SDK passes through although it detaches cancellation.
type carrierKey struct{}

// callKey names a call in flight: who sent it and its JSON-RPC id. Only the
// same client (the same bearer token and the same Mcp-Session-Id header,
// when it sends one) may cancel its own request ids.
type callKey struct {
	client string
	id     string
}

// inflight are the calls in flight over HTTP. Two calls may share a key
// (one client reusing an id on parallel POSTs): a cancellation then ends
// both, as hostmcp cannot tell that client from itself.
type inflight struct {
	mu    sync.Mutex
	calls map[callKey]map[*pending]bool
}

// pending is one call's way to be cancelled.
type pending struct{ cancel context.CancelCauseFunc }

func newInflight() *inflight {
	return &inflight{calls: map[callKey]map[*pending]bool{}}
}

// add registers a call and returns its removal.
func (f *inflight) add(k callKey, cancel context.CancelCauseFunc) func() {
	p := &pending{cancel}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.calls[k] == nil {
		f.calls[k] = map[*pending]bool{}
	}
	f.calls[k][p] = true
	return func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		delete(f.calls[k], p)
		if len(f.calls[k]) == 0 {
			delete(f.calls, k)
		}
	}
}

// cancel ends the calls k names, if any are in flight.
func (f *inflight) cancel(k callKey) {
	f.mu.Lock()
	var ps []*pending
	for p := range f.calls[k] {
		ps = append(ps, p)
	}
	f.mu.Unlock()
	for _, p := range ps {
		p.cancel(errCancelledByClient)
	}
}

// track wraps the SDK's handler: it gives every POST a carrier context, the
// request's own, which also ends when the client cancels the POST's call,
// and it applies the cancellations it reads. The body is read up to limit
// bytes and handed on whole; a larger or malformed one is left to the SDK
// to refuse. Batches, which only protocols before 2025-06-18 allow, are
// neither: ending the POST still ends their calls.
func (f *inflight) track(next http.Handler, limit int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		head, err := io.ReadAll(io.LimitReader(r.Body, limit+1))
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		carrier, cancel := context.WithCancelCause(r.Context())
		defer cancel(nil)
		var m message
		if err == nil && int64(len(head)) <= limit && json.Unmarshal(head, &m) == nil {
			noteMessage(r.Context(), &m)
			client := clientOf(r)
			switch {
			case m.ID != nil:
				if id, ok := requestID(*m.ID); ok {
					defer f.add(callKey{client, id}, cancel)()
				}
			case m.Method == "notifications/cancelled":
				if id, ok := requestID(m.Params.RequestID); ok {
					f.cancel(callKey{client, id})
				}
			}
		}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), carrierKey{}, carrier)))
	})
}

// message is the part of a JSON-RPC message tracking and the access log
// read.
type message struct {
	ID     *json.RawMessage `json:"id"`
	Method string           `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
		Name      string          `json:"name"` // the tool of a tools/call, for the access log
	} `json:"params"`
}

// requestID spells a JSON-RPC id for matching: a string, or a number
// without a fraction (the specification's ids). A string never matches a
// number ("7" is not 7); null, 7.5 and anything else match nothing.
func requestID(raw json.RawMessage) (string, bool) {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return "s" + s, true
	}
	var n json.Number
	if err := json.Unmarshal(raw, &n); err != nil {
		return "", false
	}
	i, err := strconv.ParseInt(n.String(), 10, 64)
	if err != nil {
		return "", false
	}
	return "n" + strconv.FormatInt(i, 10), true
}

// clientOf names who sent r: a digest of its bearer token (the bearer
// middleware has checked it already, when one is set) and its
// Mcp-Session-Id.
func clientOf(r *http.Request) string {
	sum := sha256.Sum256([]byte(bearerToken(r)))
	return string(sum[:]) + "\x00" + r.Header.Get("Mcp-Session-Id")
}

// followCarrier is the server's receiving middleware that ends a request's
// context when its POST's carrier ends: the client hung up, or cancelled
// it. Outside HTTP there is no carrier and it does nothing.
func followCarrier(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		carrier, ok := ctx.Value(carrierKey{}).(context.Context)
		if !ok {
			return next(ctx, method, req)
		}
		ctx, cancel := context.WithCancelCause(ctx)
		defer cancel(nil)
		stop := context.AfterFunc(carrier, func() { cancel(context.Cause(carrier)) })
		defer stop()
		return next(ctx, method, req)
	}
}
