package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"
)

// guardOut is what a frameGuard made of its input: the lines it handed on
// and the error replies it wrote.
type guardOut struct {
	passed  []string
	replies []rpcReply
}

// rpcReply is an error reply as a client reads it; ID stays raw so that
// null, 7 and "7" are told apart.
type rpcReply struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
}

// runGuard feeds in through a frameGuard that reads size bytes at a time and
// refuses lines over max.
func runGuard(t testing.TB, in string, size, max int) guardOut {
	t.Helper()
	var replies bytes.Buffer
	g := newFrameGuard(bufio.NewReaderSize(strings.NewReader(in), size), max, &replies)
	got, err := io.ReadAll(g)
	if err != nil {
		t.Fatalf("reading through the guard: %v", err)
	}
	var out guardOut
	for _, l := range strings.SplitAfter(string(got), "\n") {
		if l != "" {
			out.passed = append(out.passed, l)
		}
	}
	for _, l := range strings.Split(strings.TrimSuffix(replies.String(), "\n"), "\n") {
		if l == "" {
			continue
		}
		var r rpcReply
		if err := json.Unmarshal([]byte(l), &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.ID == nil || r.Error.Message == "" {
			t.Fatalf("reply is not a JSON-RPC error: %s", l)
		}
		out.replies = append(out.replies, r)
	}
	return out
}

func nest(n int) string { return strings.Repeat("[", n) + strings.Repeat("]", n) }

// The lines of a hostile client, each alone on its line: a valid one is
// handed on (trimmed, newline-terminated), any other gets one error reply
// under the id it can be answered under, and nothing else happens.
func TestFrameGuardLines(t *testing.T) {
	const (
		pass     = 0
		parse    = -32700
		invalid  = -32600
		noReply  = 1
		nullID   = "null"
		ping     = `{"jsonrpc":"2.0","id":1,"method":"ping"}`
		deep1000 = `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":` + "x" + `}}`
	)
	at1000 := strings.Replace(deep1000, "x", nest(998), 1) // object, params, 998 arrays: 1000 levels
	tests := []struct {
		name, line string
		code       int64
		id         string // the reply's raw id
		passedAs   string // what is handed on when not the line itself
	}{
		{name: "request", line: ping},
		{name: "string id", line: `{"jsonrpc":"2.0","id":"a-1","method":"tools/list","params":{}}`},
		{name: "notification", line: `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
		{name: "response", line: `{"jsonrpc":"2.0","id":0,"result":{"roots":[]}}`},
		{name: "error response", line: `{"jsonrpc":"2.0","id":"s1","error":{"code":-32601,"message":"no","data":[1,{"x":null}]}}`},
		{name: "unknown member", line: `{"jsonrpc":"2.0","id":1,"method":"ping","extra":[true,false,null,-1.5e+3]}`},
		{name: "escaped version", line: `{"jsonrpc":"2\u002e0","id":1,"method":"ping"}`},
		{name: "escaped id key", line: `{"jsonrpc":"2.0","\u0069d":1,"method":"ping"}`},
		{name: "key case matters", line: `{"jsonrpc":"2.0","ID":true,"method":"notifications/x"}`},
		{name: "largest safe id", line: `{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}`},
		{name: "unicode", line: `{"jsonrpc":"2.0","id":"é✓😀\ud83d\ude00","method":"ping","params":{"s":"tab\t\"q\" \\ \/"}}`},
		{name: "nested 1000 deep", line: at1000},
		{name: "spaces and CRLF", line: " \t" + ping + " \r", passedAs: ping},
		{name: "blank", line: "", code: noReply},
		{name: "whitespace only", line: " \t\r", code: noReply},

		{name: "bare word", line: "ping", code: parse, id: nullID},
		{name: "open brace", line: "{", code: parse, id: nullID},
		{name: "open bracket", line: "[", code: parse, id: nullID},
		{name: "member outside an object", line: `"id":true`, code: parse, id: nullID},
		{name: "text after the value", line: ping + " x", code: parse, id: nullID},
		{name: "two values", line: ping + ping, code: parse, id: nullID},
		{name: "cut short", line: `{"jsonrpc":"2.0","id":5,"method":"pi`, code: parse, id: nullID},
		{name: "NUL", line: "\x00", code: parse, id: nullID},
		{name: "invalid UTF-8", line: "{\"jsonrpc\":\"2.0\",\"id\":\"\xff\",\"method\":\"ping\"}", code: parse, id: nullID},
		{name: "surrogate as UTF-8", line: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xed\xa0\x80\"}", code: parse, id: nullID},
		{name: "raw control character", line: "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\tb\"}", code: parse, id: nullID},
		{name: "bad escape", line: `{"jsonrpc":"2.0","id":1,"method":"\x"}`, code: parse, id: nullID},
		{name: "bad unicode escape", line: `{"jsonrpc":"2.0","id":1,"method":"\u12g4"}`, code: parse, id: nullID},
		{name: "leading zero", line: `{"jsonrpc":"2.0","id":01,"method":"ping"}`, code: parse, id: nullID},
		{name: "mismatched closer", line: `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[}]}`, code: parse, id: nullID},
		{name: "trailing comma", line: `{"jsonrpc":"2.0","id":1,"method":"ping",}`, code: parse, id: nullID},
		{name: "single quotes", line: `{'jsonrpc':'2.0'}`, code: parse, id: nullID},

		{name: "empty object", line: "{}", code: invalid, id: nullID},
		{name: "string", line: `"ping"`, code: invalid, id: nullID},
		{name: "number", line: "5", code: invalid, id: nullID},
		{name: "null", line: "null", code: invalid, id: nullID},
		{name: "batch", line: "[" + ping + "]", code: invalid, id: nullID},
		{name: "empty batch", line: "[]", code: invalid, id: nullID},
		{name: "version 1.0", line: `{"jsonrpc":"1.0","id":2,"method":"ping"}`, code: invalid, id: "2"},
		{name: "no version", line: `{"id":"v","method":"ping"}`, code: invalid, id: `"v"`},
		{name: "version a number", line: `{"jsonrpc":2.0,"id":2,"method":"ping"}`, code: invalid, id: "2"},
		{name: "id true", line: `{"jsonrpc":"2.0","id":true,"method":"ping"}`, code: invalid, id: nullID},
		{name: "id null", line: `{"jsonrpc":"2.0","id":null,"method":"ping"}`, code: invalid, id: nullID},
		{name: "id fraction", line: `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`, code: invalid, id: nullID},
		{name: "id exponent", line: `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`, code: invalid, id: nullID},
		{name: "id object", line: `{"jsonrpc":"2.0","id":{"id":1},"method":"ping"}`, code: invalid, id: nullID},
		{name: "id beyond 2^53", line: `{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`, code: invalid, id: "9007199254740993"},
		{name: "id twice", line: `{"jsonrpc":"2.0","id":2,"id":3,"method":"ping"}`, code: invalid, id: nullID},
		{name: "method twice", line: `{"jsonrpc":"2.0","id":2,"method":"ping","method":"x"}`, code: invalid, id: "2"},
		{name: "method a number", line: `{"jsonrpc":"2.0","id":2,"method":3}`, code: invalid, id: "2"},
		{name: "method null", line: `{"jsonrpc":"2.0","id":2,"method":null}`, code: invalid, id: "2"},
		{name: "params a string", line: `{"jsonrpc":"2.0","id":2,"method":"ping","params":"x"}`, code: invalid, id: "2"},
		{name: "params null", line: `{"jsonrpc":"2.0","id":2,"method":"ping","params":null}`, code: invalid, id: "2"},
		{name: "params an array", line: `{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}`, code: invalid, id: "2"},
		{name: "no method, result or error", line: `{"jsonrpc":"2.0","id":2}`, code: invalid, id: "2"},
		{name: "request with a result", line: `{"jsonrpc":"2.0","id":2,"method":"ping","result":{}}`, code: invalid, id: nullID},
		{name: "result and error", line: `{"jsonrpc":"2.0","id":2,"result":{},"error":{"code":1,"message":"m"}}`, code: invalid, id: nullID},
		{name: "response without id", line: `{"jsonrpc":"2.0","result":{}}`, code: invalid, id: nullID},
		{name: "response id null", line: `{"jsonrpc":"2.0","id":null,"error":{"code":1,"message":"m"}}`, code: invalid, id: nullID},
		{name: "result not an object", line: `{"jsonrpc":"2.0","id":2,"result":"ok"}`, code: invalid, id: nullID},
		{name: "error not an object", line: `{"jsonrpc":"2.0","id":2,"error":"bad"}`, code: invalid, id: nullID},
		{name: "error code a string", line: `{"jsonrpc":"2.0","id":2,"error":{"code":"x","message":"m"}}`, code: invalid, id: nullID},
		{name: "error code a fraction", line: `{"jsonrpc":"2.0","id":2,"error":{"code":1.5,"message":"m"}}`, code: invalid, id: nullID},
		{name: "error code too big", line: `{"jsonrpc":"2.0","id":2,"error":{"code":9223372036854775808,"message":"m"}}`, code: invalid, id: nullID},
		{name: "error without message", line: `{"jsonrpc":"2.0","id":2,"error":{"code":1}}`, code: invalid, id: nullID},
		{name: "error code twice", line: `{"jsonrpc":"2.0","id":2,"error":{"code":1,"code":"x","message":"m"}}`, code: invalid, id: nullID},
		{name: "nested 1001 deep, id first", line: strings.Replace(deep1000, "x", nest(999), 1), code: invalid, id: "3"},
		{name: "nested 1001 deep, id last", line: `{"jsonrpc":"2.0","method":"ping","params":{"a":` + nest(999) + `},"id":"late"}`, code: invalid, id: `"late"`},
		{name: "nested far too deep", line: strings.Repeat("[", 100000), code: parse, id: nullID},
	}
	for _, tc := range tests {
		for _, size := range []int{16, 4096} {
			t.Run(tc.name, func(t *testing.T) {
				// The line under test sits between two valid requests, which
				// must both come through: nothing is swallowed.
				in := `{"jsonrpc":"2.0","id":"before","method":"ping"}` + "\n" + tc.line + "\n" + `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"
				out := runGuard(t, in, size, 1<<20)
				var want []string
				want = append(want, `{"jsonrpc":"2.0","id":"before","method":"ping"}`+"\n")
				if tc.code == pass {
					line := tc.line
					if tc.passedAs != "" {
						line = tc.passedAs
					}
					want = append(want, line+"\n")
				}
				want = append(want, `{"jsonrpc":"2.0","id":"after","method":"ping"}`+"\n")
				if strings.Join(out.passed, "") != strings.Join(want, "") {
					t.Errorf("handed on\n%q\nwant\n%q", out.passed, want)
				}
				switch tc.code {
				case pass, noReply:
					if len(out.replies) != 0 {
						t.Errorf("want no reply, got %+v", out.replies)
					}
				default:
					if len(out.replies) != 1 {
						t.Fatalf("want one reply, got %d", len(out.replies))
					}
					r := out.replies[0]
					if r.Error.Code != tc.code || string(r.ID) != tc.id {
						t.Errorf("reply code %d id %s (%s), want code %d id %s", r.Error.Code, r.ID, r.Error.Message, tc.code, tc.id)
					}
				}
			})
		}
	}
}

// A line over the limit is answered under the id of the top-level object,
// wherever that member stands, and never under an "id" nested deeper.
func TestFrameGuardOversized(t *testing.T) {
	big := strings.Repeat("z", 3000)
	tests := []struct {
		name, line, id string
	}{
		{"id first", `{"jsonrpc":"2.0","id":"req-9","method":"x","params":{"s":"` + big + `"}}`, `"req-9"`},
		{"id last", `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"fs_write","arguments":{"id":999,"content":"` + big + `"}},"id":41}`, "41"},
		{"id last after a nested id", `{"jsonrpc":"2.0","method":"x","params":{"id":"inner","a":[{"id":5}],"s":"` + big + `"},"id":"outer"}`, `"outer"`},
		{"escaped id key", `{"jsonrpc":"2.0","method":"x","params":{"s":"` + big + `"},"\u0069d":-3}`, "-3"},
		{"id split by whitespace", "{\"jsonrpc\":\"2.0\",\"params\":{\"s\":\"" + big + "\"} , \"id\" \t: \"a\\\"b\" ,\"method\":\"x\"}", `"a\"b"`},
		{"only a nested id", `{"jsonrpc":"2.0","method":"x","params":{"id":1,"s":"` + big + `"}}`, "null"},
		{"id twice", `{"jsonrpc":"2.0","id":1,"method":"x","params":{"s":"` + big + `"},"id":2}`, "null"},
		{"id of the wrong type", `{"jsonrpc":"2.0","method":"x","params":{"s":"` + big + `"},"id":[1]}`, "null"},
		{"a response", `{"jsonrpc":"2.0","result":{"s":"` + big + `"},"id":3}`, "null"},
		{"id after a syntax error", `{"jsonrpc":"2.0","method":"x","params":{"s":"` + big + `",},"id":4}`, "null"},
		{"id too long to keep", `{"jsonrpc":"2.0","method":"x","params":{},"id":"` + big + `"}`, "null"},
		{"not JSON", big, "null"},
	}
	for _, tc := range tests {
		for _, size := range []int{16, 64, 4096} {
			t.Run(tc.name, func(t *testing.T) {
				in := tc.line + "\n" + `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"
				out := runGuard(t, in, size, 1024)
				if want := `{"jsonrpc":"2.0","id":"after","method":"ping"}` + "\n"; strings.Join(out.passed, "") != want {
					t.Errorf("handed on %q, want only the request after it", out.passed)
				}
				if len(out.replies) != 1 {
					t.Fatalf("want one reply, got %+v", out.replies)
				}
				r := out.replies[0]
				if r.Error.Code != -32600 || string(r.ID) != tc.id || !strings.Contains(r.Error.Message, "over the limit of 1024 bytes") {
					t.Errorf("reply code %d id %s %q, want -32600 id %s naming the limit", r.Error.Code, r.ID, r.Error.Message, tc.id)
				}
			})
		}
	}
}

// A message of exactly the limit is served; the limit counts the message,
// not its newline.
func TestFrameGuardLimitIsInclusive(t *testing.T) {
	line := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("a", 100) + `"}}`
	out := runGuard(t, line+"\n", 16, len(line))
	if len(out.passed) != 1 || len(out.replies) != 0 {
		t.Errorf("a message of exactly max bytes: passed %d, replies %+v", len(out.passed), out.replies)
	}
	out = runGuard(t, line+"\n", 16, len(line)-1)
	if len(out.passed) != 0 || len(out.replies) != 1 {
		t.Errorf("a message one byte over: passed %d, replies %+v", len(out.passed), out.replies)
	}
}

// What the guard hands on, the SDK reads under the limit ServeStdio sets:
// a message of exactly the limit, 1000 levels deep, or with CRLF.
func TestStdioTransportReadsWhatIsHandedOn(t *testing.T) {
	deep := `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"a":` + nest(998) + `}}`
	at := `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"s":"` + strings.Repeat("a", 70000) + `"}}`
	in := at + "\n" + deep + "\r\n" + "{\n"
	ctx := context.Background()
	var replies bytes.Buffer
	conn, err := stdioTransport(strings.NewReader(in), &replies, len(at)).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range 2 {
		if _, err := conn.Read(ctx); err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
	}
	if _, err := conn.Read(ctx); !errors.Is(err, io.EOF) {
		t.Fatalf("after the two messages: %v, want the end", err)
	}
	if !strings.Contains(replies.String(), `"code":-32700`) {
		t.Errorf("the bad last line got %q, want a parse error", replies.String())
	}
}

// The last line needs no newline: it is judged when the input ends.
func TestFrameGuardLastLineWithoutNewline(t *testing.T) {
	out := runGuard(t, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"ping"}`, 16, 1024)
	if want := []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n", `{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\n"}; strings.Join(out.passed, "") != strings.Join(want, "") {
		t.Errorf("handed on %q, want %q", out.passed, want)
	}
	out = runGuard(t, `{"jsonrpc":"2.0","id":1,"method"`, 16, 1024)
	if len(out.passed) != 0 || len(out.replies) != 1 || out.replies[0].Error.Code != -32700 {
		t.Errorf("a cut last line: passed %q, replies %+v", out.passed, out.replies)
	}
}

// A blank line is skipped whatever its length: there is nothing to answer.
func TestFrameGuardLongBlankLine(t *testing.T) {
	out := runGuard(t, strings.Repeat(" \t", 600)+"\r\n"+`{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n", 16, 1024)
	if len(out.passed) != 1 || len(out.replies) != 0 {
		t.Errorf("handed on %q, replied %+v; want only the request, no reply", out.passed, out.replies)
	}
}
