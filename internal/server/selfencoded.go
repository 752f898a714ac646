package server

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A tools/call result written over stdio without encoding/json passing
// over it. The SDK encodes every result it is handed with encoding/json
// (jsonrpc2's NewResponse), which compacts, byte by byte, whatever a
// json.Marshaler returns: a 65 KB envelope, carried twice in the result,
// cost 0.6 to 1 ms there (issue 20 point 3). So over stdio the result is
// a selfEncodedResult: asked for its JSON, it writes it with hostmcp's own
// appenders, hands it to its connection's encodedResults, and gives the
// SDK a token of a few bytes in its place; the connection
// (rawResponseConn), writing the response, swaps the token back for the
// JSON. The streamable HTTP transport never sees one: the middleware
// makes one only for a request whose context carries encodedResults,
// which ServeStdio alone puts there.

// maxHeldResults bounds the results held between their encoding and their
// write. A result is held for the moment between the two, on one
// goroutine; one whose write never comes (the session ending while its
// call runs) stays until the connection closes. Past the bound a result
// goes out the SDK's way.
const maxHeldResults = 64

// encodedResults holds, for one stdio connection, the results encoded
// for it and not yet written.
type encodedResults struct {
	mu   sync.Mutex
	next uint64
	held map[uint64]heldResult
}

// heldResult is a result's JSON, buf[at:], with room before it for the
// head of its response line and after it for the tail: the line is made
// in place, not copied again.
type heldResult struct {
	buf []byte
	at  int
}

// lineHeadRoom is the room left before a result's JSON, enough for the
// head of its line with an id of up to 32 bytes.
const lineHeadRoom = len(responseHead) + len(resultMember) + 32

// json is the result's JSON.
func (h heldResult) json() []byte { return h.buf[h.at:] }

// line is the response line for id around the result, made in place when
// the head fits in the room before it.
func (h heldResult) line(id []byte) []byte {
	head := len(responseHead) + len(id) + len(resultMember)
	if head > h.at {
		return responseLine(id, h.json())
	}
	from := h.at - head
	n := from + copy(h.buf[from:], responseHead)
	n += copy(h.buf[n:], id)
	copy(h.buf[n:], resultMember)
	return append(h.buf[from:], responseTail...)
}

// tokenPrefix begins the token a held result's JSON stands for. A token
// is taken only by the connection whose encodedResults holds it, and only
// when it is the whole result.
const tokenPrefix = `{"io.hostmcp/encoded":`

// hold keeps r and returns the token that stands for it, or false when
// maxHeldResults are held already.
func (e *encodedResults) hold(r heldResult) ([]byte, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.held) >= maxHeldResults {
		return nil, false
	}
	if e.held == nil {
		e.held = map[uint64]heldResult{}
	}
	e.next++
	e.held[e.next] = r
	token := strconv.AppendUint([]byte(tokenPrefix), e.next, 10)
	return append(token, '}'), true
}

// take returns the result a token stands for, if this holds it, and
// lets it go.
func (e *encodedResults) take(token []byte) (heldResult, bool) {
	if e == nil || !bytes.HasPrefix(token, []byte(tokenPrefix)) || token[len(token)-1] != '}' {
		return heldResult{}, false
	}
	n, err := strconv.ParseUint(string(token[len(tokenPrefix):len(token)-1]), 10, 64)
	if err != nil {
		return heldResult{}, false
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	r, ok := e.held[n]
	if ok {
		delete(e.held, n)
	}
	return r, ok
}

// release lets go of every result still held: the connection closes after
// its last write, so they will never be written.
func (e *encodedResults) release() {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.held = nil
}

// heldCount is how many results wait for their write.
func (e *encodedResults) heldCount() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.held)
}

type encodedResultsKey struct{}

// withEncodedResults marks ctx as a stdio connection's, whose requests'
// results its rawResponseConn writes.
func withEncodedResults(ctx context.Context, e *encodedResults) context.Context {
	return context.WithValue(ctx, encodedResultsKey{}, e)
}

func encodedResultsOf(ctx context.Context) *encodedResults {
	e, _ := ctx.Value(encodedResultsKey{}).(*encodedResults)
	return e
}

// selfEncodedResult is a callResult that writes its own JSON. It is
// encoded when the SDK writes the response, after the SDK's last change
// to the result (a sessionless request's _meta gets the server's
// identity through SetMeta).
type selfEncodedResult struct {
	*callResult
	to *encodedResults
}

// MarshalJSON returns the token of the result's JSON, held for the
// connection; or the JSON itself when too many are held, which the SDK
// then checks and writes as it does any result.
func (r *selfEncodedResult) MarshalJSON() ([]byte, error) {
	buf, err := appendCallResult(make([]byte, lineHeadRoom, lineHeadRoom+callResultSize(r.callResult)+len(responseTail)), r.callResult)
	if err != nil {
		return nil, err
	}
	held := heldResult{buf: buf, at: lineHeadRoom}
	if token, ok := r.to.hold(held); ok {
		return token, nil
	}
	return held.json(), nil
}

// callResultSize is about the size of r's JSON, a little over for the
// text's escapes (a quote in about every eight bytes of an envelope), so
// that appendCallResult seldom grows its buffer.
func callResultSize(r *callResult) int {
	text := len(r.Content[0].(textBlock).Text)
	return 256 + text + text/8 + len(r.StructuredContent)
}

// appendCallResult appends r's JSON, byte for byte what encoding/json
// writes for it without HTML escaping (TestAppendCallResultIsEncodingJSONs),
// with the text escaped by the project's appender and structuredContent
// copied when it is the text itself: the runner's envelope, compact JSON
// that encoding/json made (tool.Envelope.JSON). Any other structuredContent
// is compacted, as encoding/json does.
func appendCallResult(dst []byte, r *callResult) ([]byte, error) {
	text := r.Content[0].(textBlock).Text
	dst = append(dst, '{')
	if len(r.Meta) > 0 {
		meta, err := tool.MarshalJSON(r.Meta)
		if err != nil {
			return nil, err
		}
		dst = append(append(append(dst, `"_meta":`...), meta...), ',')
	}
	dst = append(dst, `"content":[{"type":"text","text":`...)
	dst = tool.AppendJSONString(dst, text)
	dst = append(dst, '}')
	for _, c := range r.Content[1:] {
		block, err := tool.MarshalJSON(c)
		if err != nil {
			return nil, err
		}
		dst = append(append(dst, ','), block...)
	}
	dst = append(dst, ']')
	if sc := r.StructuredContent; len(sc) > 0 {
		dst = append(dst, `,"structuredContent":`...)
		if string(sc) == text {
			dst = append(dst, sc...)
		} else {
			var b bytes.Buffer
			if err := json.Compact(&b, sc); err != nil {
				return nil, err
			}
			dst = append(dst, b.Bytes()...)
		}
	}
	if r.IsError {
		dst = append(dst, `,"isError":true`...)
	}
	if r.ResultType != "" {
		dst = append(dst, `,"resultType":`...)
		dst = tool.AppendJSONString(dst, r.ResultType)
	}
	return append(dst, '}'), nil
}
