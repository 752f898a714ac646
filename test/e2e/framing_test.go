package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// Each line of a hostile client gets one JSON-RPC error (or, blank, none),
// and the session goes on: the request sent after it is answered.
func TestStdioSurvivesMalformedLines(t *testing.T) {
	s := startRaw(t, newEnv(t, ""))
	const (
		parse   = -32700
		invalid = -32600
	)
	deep := func(n int, id string) string {
		return `{"jsonrpc":"2.0","method":"ping","params":{"_meta":{},"x":` + strings.Repeat("[", n) + strings.Repeat("]", n) + `},"id":` + id + `}`
	}
	tests := []struct {
		name, line string
		code       int64  // 0: no error reply
		id         string // the error reply's raw id
	}{
		{"bare word", "ping", parse, "null"},
		{"open brace", "{", parse, "null"},
		{"open bracket", "[", parse, "null"},
		{"member outside an object", `"id":true`, parse, "null"},
		{"NUL", "\x00", parse, "null"},
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}", parse, "null"},
		{"two values", `{"jsonrpc":"2.0","id":50,"method":"ping"} {"jsonrpc":"2.0","id":51,"method":"ping"}`, parse, "null"},
		{"empty object", "{}", invalid, "null"},
		{"null", "null", invalid, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":52,"method":"ping"}]`, invalid, "null"},
		{"version 1.0", `{"jsonrpc":"1.0","id":53,"method":"ping"}`, invalid, "53"},
		{"id true", `{"jsonrpc":"2.0","id":true,"method":"ping"}`, invalid, "null"},
		{"id null", `{"jsonrpc":"2.0","id":null,"method":"ping"}`, invalid, "null"},
		{"id fraction", `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, invalid, "null"},
		{"id too large to keep", `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, invalid, "null"},
		{"id twice", `{"jsonrpc":"2.0","id":54,"id":55,"method":"ping"}`, invalid, "null"},
		{"method a number", `{"jsonrpc":"2.0","id":"m","method":3}`, invalid, `"m"`},
		{"no method, result or error", `{"jsonrpc":"2.0","id":56}`, invalid, "56"},
		{"error code a string", `{"jsonrpc":"2.0","id":57,"error":{"code":"x","message":"m"}}`, invalid, "null"},
		{"nested 1001 deep", deep(999, `"deep"`), invalid, `"deep"`},
		{"blank", "", 0, ""},
		{"spaces", " \t\r", 0, ""},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s.t = t
			s.send(tc.line)
			if tc.code != 0 {
				r := s.next()
				if r.Error == nil || r.Error.Code != tc.code || string(r.ID) != tc.id || r.Error.Message == "" {
					t.Errorf("want error %d with id %s, got %s", tc.code, tc.id, r.line)
				}
			}
			id := fmt.Sprint(1000 + i)
			s.send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
			if r := s.next(); r.Result == nil || string(r.ID) != id {
				t.Fatalf("the ping sent after it: want its result, got %s", r.line)
			}
		})
	}

	// What the guard lets through the SDK serves: 1000 levels deep, spaces
	// and CRLF around a request.
	s.t = t
	s.send(deep(998, `"at-limit"`))
	if r := s.next(); r.Result == nil || string(r.ID) != `"at-limit"` {
		t.Errorf("a request nested 1000 deep: want its result, got %s", r.line)
	}
	s.send("  " + `{"jsonrpc":"2.0","id":"crlf","method":"ping"}` + " \r")
	if r := s.next(); r.Result == nil || string(r.ID) != `"crlf"` {
		t.Errorf("a request with spaces and CRLF around it: want its result, got %s", r.line)
	}
}
