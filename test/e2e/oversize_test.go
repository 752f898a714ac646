package e2e

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
)

// A stdio message over the size limit is answered with an error under its
// own id, costs bounded memory, and the session goes on.
func TestStdioMessageOverLimit(t *testing.T) {
	s := startRaw(t, newEnv(t, "[stdio]\nmax_message_bytes = 1048576\n"))
	// writeHuge writes head, then n MiB of filler, then tail as one line,
	// in chunks: the server must not buffer it.
	writeHuge := func(head string, n int, tail string) {
		go func() {
			_, _ = io.WriteString(s.stdin, head)
			chunk := strings.Repeat("a", 1<<20)
			for range n {
				if _, err := io.WriteString(s.stdin, chunk); err != nil {
					return
				}
			}
			_, _ = io.WriteString(s.stdin, tail+"\n")
		}()
	}
	check := func(r rawReply, id string) {
		t.Helper()
		if r.Error == nil || string(r.ID) != id || r.Error.Code != -32600 || !strings.Contains(r.Error.Message, "over the limit") {
			t.Fatalf("want error -32600 for request %s naming the limit, got %s", id, r.line)
		}
	}

	// 64 MiB in one line, the id first.
	writeHuge(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sys_snapshot","arguments":{"x":"`, 64, `"}}}`)
	check(s.next(), "7")

	// The TypeScript SDK writes the id last; the arguments hold an "id" of
	// their own, which is not the request's.
	writeHuge(`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"fs_write","arguments":{"id":999,"path":"big.txt","content":"`, 4, `"}},"id":"ts-8"}`)
	check(s.next(), `"ts-8"`)

	if hwm := peakRSS(t, s.cmd.Process.Pid); hwm > 48<<20 {
		t.Errorf("server peak RSS %d MiB after a 64 MiB message: it buffered the message", hwm>>20)
	}
	s.send(`{"jsonrpc":"2.0","id":9,"method":"tools/list"}`)
	if r := s.next(); r.Result == nil || string(r.ID) != "9" {
		t.Fatalf("session did not survive the oversized messages: %s", r.line)
	}
}

// peakRSS reads VmHWM of a process, in bytes.
func peakRSS(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "VmHWM:" {
			kb, _ := strconv.Atoi(f[1])
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}
