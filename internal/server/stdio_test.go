package server

import (
	"bufio"
	"bytes"
	"io"
	"strings"
	"testing"
)

func TestFrameGuard(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":"req-9","method":"x","params":"` + strings.Repeat("z", 300) + `"}`
	in := `{"a":1}` + "\n" + long + "\n" + `{"b":2}` + "\n" + strings.Repeat("q", 1000) + "\n" + `{"c":3}`
	var replies bytes.Buffer
	g := &frameGuard{src: bufio.NewReaderSize(strings.NewReader(in), 16), max: 100, out: &replies}
	got, err := io.ReadAll(g)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"a":1}` + "\n" + `{"b":2}` + "\n" + `{"c":3}`; string(got) != want {
		t.Errorf("passed through %q, want %q", got, want)
	}
	lines := strings.Split(strings.TrimSpace(replies.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("want two error replies, got %q", replies.String())
	}
	if !strings.Contains(lines[0], `"id":"req-9"`) || !strings.Contains(lines[0], "-32600") {
		t.Errorf("first reply must answer request req-9: %s", lines[0])
	}
	if !strings.Contains(lines[1], `"id":null`) {
		t.Errorf("a message without a readable id gets id null: %s", lines[1])
	}
}
