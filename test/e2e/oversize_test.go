package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A stdio message over the size limit is answered with an error, costs
// bounded memory, and the session goes on.
func TestStdioMessageOverLimit(t *testing.T) {
	e := newEnv(t, "[stdio]\nmax_message_bytes = 1048576\n")
	cmd := exec.Command(binary, e.args("serve")...)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
	replies := make(chan map[string]any, 10)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var m map[string]any
			if json.Unmarshal(sc.Bytes(), &m) == nil {
				replies <- m
			}
		}
		close(replies)
	}()
	send := func(s string) {
		if _, err := io.WriteString(stdin, s+"\n"); err != nil {
			t.Fatalf("writing to the server: %v", err)
		}
	}
	next := func() map[string]any {
		select {
		case m, ok := <-replies:
			if !ok {
				t.Fatal("server closed stdout")
			}
			return m
		case <-time.After(20 * time.Second):
			t.Fatal("no reply")
		}
		return nil
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if m := next(); m["result"] == nil {
		t.Fatalf("initialize failed: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	// 64 MiB in one line, written in chunks: the server must not buffer it.
	go func() {
		_, _ = io.WriteString(stdin, `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"sys_snapshot","arguments":{"x":"`)
		chunk := strings.Repeat("a", 1<<20)
		for range 64 {
			if _, err := io.WriteString(stdin, chunk); err != nil {
				return
			}
		}
		_, _ = io.WriteString(stdin, "\"}}}\n")
	}()
	m := next()
	errObj, _ := m["error"].(map[string]any)
	if errObj == nil || m["id"] != float64(7) || !strings.Contains(fmt.Sprint(errObj["message"]), "over the limit") {
		t.Fatalf("want an error for request 7 naming the limit, got %v", m)
	}
	if hwm := peakRSS(t, cmd.Process.Pid); hwm > 48<<20 {
		t.Errorf("server peak RSS %d MiB after a 64 MiB message: it buffered the message", hwm>>20)
	}
	send(`{"jsonrpc":"2.0","id":8,"method":"tools/list"}`)
	if m := next(); m["result"] == nil || m["id"] != float64(8) {
		t.Fatalf("session did not survive the oversized message: %v", m)
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
