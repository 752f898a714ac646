package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// The members of a JSON-RPC message the guard judges, by their index in
// the scanner newMessageScanner returns.
const (
	memVersion = iota
	memID
	memMethod
	memParams
	memResult
	memError
)

func newMessageScanner() *jsonScanner {
	return newScanner([]string{"jsonrpc", "id", "method", "params", "result", "error"}, "id")
}

// maxSafeID is the largest integer id the SDK answers under unchanged: it
// reads ids as float64, exact up to 2^53.
const maxSafeID = 1<<53 - 1

// verdict is the guard's decision on one line.
type verdict struct {
	pass bool
	code int64  // when refused: jsonrpc.CodeParseError or CodeInvalidRequest
	id   []byte // the id to answer under; nil answers under null
	why  string
}

func refuse(code int64, id []byte, format string, args ...any) verdict {
	return verdict{code: code, id: id, why: fmt.Sprintf(format, args...)}
}

// judge decides whether a scanned line, held whole in line, is a JSON-RPC
// 2.0 message as MCP defines one (a request, a notification or a response)
// that the SDK will read without failing. What it refuses, the SDK would
// have refused by ending the session, or misread: a fractional id answered
// as an integer, a null id taken for a notification, the last of two ids.
func judge(s *jsonScanner, line []byte) verdict {
	const fix = "send one JSON-RPC 2.0 message per line"
	switch {
	case s.err != "":
		return refuse(jsonrpc.CodeParseError, nil, "parse error at byte %d: %s; %s, as JSON", s.errAt, s.err, fix)
	case s.top == '[':
		return refuse(jsonrpc.CodeInvalidRequest, nil, "invalid request: a batch (JSON array) is not accepted; %s", fix)
	case s.top != '{':
		return refuse(jsonrpc.CodeInvalidRequest, nil, "invalid request: a message is a JSON object; %s", fix)
	}
	id := replyID(s)
	if s.tooDeep {
		return refuse(jsonrpc.CodeInvalidRequest, id, "invalid request: nested deeper than %d levels; send flatter arguments", maxNesting)
	}
	m := &s.members
	for i, name := range s.names {
		if m[i].count > 1 {
			if i == memID {
				id = nil
			}
			return refuse(jsonrpc.CodeInvalidRequest, id, "invalid request: member %q appears more than once", name)
		}
	}
	v := m[memVersion]
	if v.count == 0 {
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "jsonrpc": "2.0" is missing`)
	}
	if !isString(line, v, "2.0") {
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "jsonrpc" must be "2.0", got %s`, tool.Clip(string(line[v.start:v.end])))
	}
	if m[memMethod].count > 0 {
		return judgeRequest(s, line, id)
	}
	return judgeResponse(s, line, id)
}

// judgeRequest judges a message with a method: a request or, without an
// id, a notification.
func judgeRequest(s *jsonScanner, line, id []byte) verdict {
	m := &s.members
	switch {
	case m[memID].count > 0 && !validID(line, m[memID]):
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "id" must be a string or an integer between -%d and %d; leave it out for a notification`, maxSafeID, maxSafeID)
	case m[memMethod].kind != '"':
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "method" must be a string`)
	case m[memResult].count > 0 || m[memError].count > 0:
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: a request carries no "result" or "error"`)
	case m[memParams].count > 0 && m[memParams].kind != '{':
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "params" must be an object; leave it out when there are none`)
	}
	return verdict{pass: true}
}

// judgeResponse judges a message without a method: a response to one of
// the server's requests.
func judgeResponse(s *jsonScanner, line, id []byte) verdict {
	m := &s.members
	switch {
	case m[memResult].count+m[memError].count != 1:
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: a request needs "method"; a response needs exactly one of "result" or "error"`)
	case !validID(line, m[memID]):
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: a response needs the "id" (a string or an integer) of the request it answers`)
	case m[memResult].count > 0 && m[memResult].kind != '{':
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "result" must be an object`)
	case m[memError].count > 0 && !validErrorObject(line[m[memError].start:m[memError].end]):
		return refuse(jsonrpc.CodeInvalidRequest, id, `invalid request: "error" must be an object with an integer "code" and a string "message"`)
	}
	return verdict{pass: true}
}

// replyID is the id a refused message is answered under: its top-level
// "id" when there is one, once, of a request id's type; else null. A
// message that carries "result" or "error" is a response, whose id names a
// request of the server's: answered under it, the client would take the
// error for the answer to its own request of the same id.
func replyID(s *jsonScanner) []byte {
	m := &s.members
	if m[memID].count != 1 || m[memID].end == 0 || len(s.id) == 0 || s.idOver || m[memResult].count > 0 || m[memError].count > 0 {
		return nil
	}
	if s.id[0] == '"' || isInteger(s.id) {
		return s.id
	}
	return nil
}

// validID reports whether the top-level id, present once, is a string or
// an integer the SDK answers under unchanged.
func validID(line []byte, m member) bool {
	if m.count != 1 {
		return false
	}
	raw := line[m.start:m.end]
	if m.kind == '"' {
		return true
	}
	if !isInteger(raw) {
		return false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	return err == nil && n >= -maxSafeID && n <= maxSafeID
}

// isInteger reports whether a JSON number's text has no fraction or
// exponent.
func isInteger(num []byte) bool {
	return len(num) > 0 && (num[0] == '-' || num[0] >= '0' && num[0] <= '9') && !bytes.ContainsAny(num, ".eE")
}

// isString reports whether member m is a string equal to want, however
// it is escaped.
func isString(line []byte, m member, want string) bool {
	if m.count != 1 || m.kind != '"' {
		return false
	}
	raw := line[m.start:m.end]
	if string(raw[1:len(raw)-1]) == want {
		return true
	}
	var got string
	return bytes.IndexByte(raw, '\\') >= 0 && json.Unmarshal(raw, &got) == nil && got == want
}

// validErrorObject reports whether raw, a JSON value, is an error object
// the SDK reads: its code goes into an int64, its message into a string.
func validErrorObject(raw []byte) bool {
	s := newScanner([]string{"code", "message"}, "")
	s.feed(raw)
	s.finish()
	code, msg := s.members[0], s.members[1]
	if s.err != "" || s.top != '{' || code.count != 1 || msg.count != 1 || msg.kind != '"' {
		return false
	}
	text := raw[code.start:code.end]
	if !isInteger(text) {
		return false
	}
	_, err := strconv.ParseInt(string(text), 10, 64)
	return err == nil
}
