package server

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"testing"
	"unicode/utf8"
)

// FuzzFrameGuard feeds arbitrary input through the guard, read size bytes
// at a time with a limit of max bytes, and checks that: every non-blank
// line yields exactly one thing, in order (handed on, or one error reply);
// what is handed on, the SDK's own stdio reader reads without failing; a
// line gets a parse error exactly when encoding/json finds it invalid (or
// it is not UTF-8); replies are JSON-RPC errors whose id, when not null, is
// the line's top-level id.
func FuzzFrameGuard(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		`{"jsonrpc":"2.0","method":"x","params":{"id":2,"a":[1.5e3,true,null]},"id":"s"}`,
		`{"jsonrpc":"2.0","id":"a\u0062\"c","result":{}}` + "\r\n" + `{"jsonrpc":"2.0","id":3,"error":{"code":-1,"message":"m","data":{}}}`,
		"ping\n{\n{}\n\"id\":true\n[\n\n  \n" + `{"jsonrpc":"1.0","id":4,"method":"ping"}`,
		`[{"jsonrpc":"2.0","id":5,"method":"ping"}]` + "\n" + `{"jsonrpc":"2.0","id":1e400,"method":"ping"}`,
		`{"jsonrpc":"2.0","\u0069d":6,"id":7,"method":"ping"}` + "\n" + `{"jsonrpc":"2.0","id":9007199254740993,"method":"p"}`,
		"{\"jsonrpc\":\"2.0\",\"id\":\"\xed\xa0\x80\xf4\x90\",\"method\":\"ping\"}",
		`{"jsonrpc":"2.0","method":"x","params":{"s":"` + string(bytes.Repeat([]byte("z"), 300)) + `"},"id":8}`,
		string(bytes.Repeat([]byte(" "), 300)) + "\n" + `{"jsonrpc":"2.0","id":10,"method":"ping"}`,
		`{"a":` + string(bytes.Repeat([]byte("["), 40)) + string(bytes.Repeat([]byte("]"), 40)) + `,"jsonrpc":"2.0","id":9,"method":"x"}`,
	} {
		f.Add([]byte(seed), uint8(0), uint16(256))
	}
	f.Fuzz(func(t *testing.T, in []byte, size uint8, limit uint16) {
		max := 16 + int(limit)%1024
		var replies bytes.Buffer
		g := newFrameGuard(bufio.NewReaderSize(bytes.NewReader(in), 16+int(size)), max, &replies)
		out, err := io.ReadAll(g)
		if err != nil {
			t.Fatal(err)
		}
		passed := splitLines(out)
		answers := splitLines(replies.Bytes())
		checkReadBySDK(t, in, max, len(passed))

		lines := bytes.Split(in, []byte("\n"))
		if len(lines[len(lines)-1]) == 0 {
			lines = lines[:len(lines)-1]
		}
		for _, line := range lines {
			trimmed := bytes.Trim(line, " \t\r")
			if len(trimmed) == 0 {
				continue
			}
			if len(passed) > 0 && bytes.Equal(bytes.TrimSuffix(passed[0], []byte("\n")), trimmed) && len(line) <= max {
				passed = passed[1:]
				continue
			}
			if len(answers) == 0 {
				t.Fatalf("line %q yields nothing", line)
			}
			checkReply(t, line, answers[0], len(line) > max)
			answers = answers[1:]
		}
		if len(passed)+len(answers) != 0 {
			t.Fatalf("more out than in: %q handed on and %q replied to no line", passed, answers)
		}
	})
}

// splitLines splits newline-ended lines, keeping the newline.
func splitLines(b []byte) [][]byte {
	var lines [][]byte
	for len(b) > 0 {
		n := bytes.IndexByte(b, '\n') + 1
		if n == 0 {
			n = len(b)
		}
		lines = append(lines, b[:n])
		b = b[n:]
	}
	return lines
}

// checkReadBySDK reads in through the transport ServeStdio uses, the
// SDK's own reader behind the guard: it must yield the n messages handed
// on, then the end of the input.
func checkReadBySDK(t *testing.T, in []byte, max, n int) {
	t.Helper()
	ctx := context.Background()
	conn, err := stdioTransport(bytes.NewReader(in), io.Discard, max).Connect(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for i := range n + 1 {
		_, err := conn.Read(ctx)
		switch {
		case i < n && err != nil:
			t.Fatalf("the SDK fails on handed-on message %d: %v", i, err)
		case i == n && !errors.Is(err, io.EOF):
			t.Fatalf("after %d messages the SDK reads %v, want the end", n, err)
		}
	}
}

type nopWriteCloser struct{}

func (nopWriteCloser) Write(p []byte) (int, error) { return len(p), nil }
func (nopWriteCloser) Close() error                { return nil }

// checkReply checks the reply to one refused line.
func checkReply(t *testing.T, line, answer []byte, oversized bool) {
	t.Helper()
	var r rpcReply
	if err := json.Unmarshal(answer, &r); err != nil || r.JSONRPC != "2.0" || r.Error == nil || r.Error.Message == "" || r.ID == nil {
		t.Fatalf("reply to %q is not a JSON-RPC error: %s", line, answer)
	}
	valid := json.Valid(line) && utf8.Valid(line)
	switch {
	case r.Error.Code == -32600:
		if !valid && !oversized {
			t.Fatalf("line %q is not JSON, yet got %s", line, answer)
		}
	case r.Error.Code == -32700:
		if valid || oversized {
			t.Fatalf("line %q got a parse error: %s", line, answer)
		}
	default:
		t.Fatalf("reply to %q has code %d", line, r.Error.Code)
	}
	if string(r.ID) == "null" {
		return
	}
	if !valid {
		if !bytes.Contains(line, r.ID) {
			t.Fatalf("reply id %s is not in line %q", r.ID, line)
		}
		return
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(line, &top); err != nil {
		t.Fatalf("reply to %q has id %s, but the line is no object: %v", line, r.ID, err)
	}
	if !bytes.Equal(top["id"], r.ID) {
		t.Fatalf("reply to %q has id %s, want the top-level id %s", line, r.ID, top["id"])
	}
}
