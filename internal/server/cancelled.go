package server

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
)

// maxCancelled bounds the ids kept as cancelled. An id stays only until
// its response is dropped, or the client uses it again; one cancelled after
// its response went out stays, and the oldest go first past this bound.
const maxCancelled = 256

// cancelledCalls keeps the stdio requests the client cancelled, so that
// their responses are not sent. The protocol asks a receiver of
// notifications/cancelled not to answer the request; the SDK (v1.8) stops
// the handler but still writes its response, so the transport drops it.
type cancelledCalls struct {
	mu    sync.Mutex
	ids   map[requestID]struct{}
	order []requestID
}

// requestID is a JSON-RPC id as a map key: 7 and "7" differ, 7 and 7.0 do
// not.
type requestID struct {
	str   string
	num   int64
	isStr bool
}

// parseID reads a raw JSON-RPC id: a string or an integer.
func parseID(raw []byte) (requestID, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return requestID{}, false
		}
		return requestID{str: s, isStr: true}, true
	}
	if n, err := strconv.ParseInt(string(raw), 10, 64); err == nil {
		return requestID{num: n}, true
	}
	var f float64 // an integer written with a fraction or an exponent
	if len(raw) == 0 || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') || json.Unmarshal(raw, &f) != nil || f != float64(int64(f)) {
		return requestID{}, false
	}
	return requestID{num: int64(f)}, true
}

// cancel notes the request a notifications/cancelled names in its params.
func (c *cancelledCalls) cancel(params []byte) {
	var p struct {
		RequestID json.RawMessage `json:"requestId"`
	}
	if json.Unmarshal(params, &p) != nil {
		return
	}
	id, ok := parseID(p.RequestID)
	if !ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.ids == nil {
		c.ids = map[requestID]struct{}{}
	}
	if _, ok := c.ids[id]; ok {
		return
	}
	if len(c.order) >= maxCancelled {
		delete(c.ids, c.order[0])
		c.order = c.order[1:]
	}
	c.ids[id] = struct{}{}
	c.order = append(c.order, id)
}

// began notes a new request with raw id: if the client reuses an id it
// cancelled, the new request's response is sent.
func (c *cancelledCalls) began(raw []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ids) == 0 {
		return
	}
	if id, ok := parseID(raw); ok {
		c.forget(id)
	}
}

// drop reports whether msg, one whole message the SDK writes, is the
// response to a cancelled request, and forgets the id if so. While nothing
// is cancelled it costs a length check; otherwise it reads the message only
// up to its id and kind (the SDK writes "jsonrpc", then "id", then "result"
// or "error").
func (c *cancelledCalls) drop(msg []byte) bool {
	if c == nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.ids) == 0 {
		return false
	}
	raw, ok := responseID(msg)
	if !ok {
		return false
	}
	id, ok := parseID(raw)
	if !ok {
		return false
	}
	if _, ok := c.ids[id]; !ok {
		return false
	}
	c.forget(id)
	return true
}

// forget removes id; the caller holds c.mu.
func (c *cancelledCalls) forget(id requestID) {
	if _, ok := c.ids[id]; !ok {
		return
	}
	delete(c.ids, id)
	for i, o := range c.order {
		if o == id {
			c.order = append(c.order[:i], c.order[i+1:]...)
			break
		}
	}
}

// responseID returns the id of msg when it is a response (an "id" with a
// "result" or an "error", no "method"), reading the top-level members only
// until both are known.
func responseID(msg []byte) ([]byte, bool) {
	dec := json.NewDecoder(bytes.NewReader(msg))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, false
	}
	var id json.RawMessage
	response := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, false
		}
		switch t {
		case "method":
			return nil, false // a request or notification of the server's
		case "result", "error":
			response = true
		case "id":
			if dec.Decode(&id) != nil {
				return nil, false
			}
		}
		if response && id != nil {
			return id, true
		}
		if t != "id" {
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				return nil, false
			}
		}
	}
	return nil, false
}
