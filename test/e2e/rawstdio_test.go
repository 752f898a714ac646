package e2e

import (
	"bufio"
	"encoding/json"
	"io"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// rawStdio is a `hostmcp serve` on stdio driven line by line, for what no
// well-behaved client would send.
type rawStdio struct {
	t       *testing.T
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	replies chan rawReply
	// protocol is the revision the server answered initialize with, in
	// initResult.
	protocol   string
	initResult json.RawMessage
}

// rawReply is one line the server wrote, decoded, with its id kept raw so
// that null, 7 and "7" are told apart.
type rawReply struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"` // of a notification or a request of the server's
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	line string
}

// startRaw starts the server and initializes the session at 2025-06-18.
func startRaw(t *testing.T, e *env) *rawStdio {
	t.Helper()
	return startRawAt(t, e, "2025-06-18")
}

// startRawAt starts the server and initializes the session asking for
// protocol revision rev.
func startRawAt(t *testing.T, e *env, rev string) *rawStdio {
	t.Helper()
	cmd := exec.Command(binary, e.args("serve")...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = &testLog{t: t}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGKILL); _ = cmd.Wait() })
	s := &rawStdio{t: t, cmd: cmd, stdin: stdin, replies: make(chan rawReply, 16)}
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 1<<20), 1<<24)
		for sc.Scan() {
			var r rawReply
			if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
				r.Error = &struct {
					Code    int64  `json:"code"`
					Message string `json:"message"`
				}{Message: "the server wrote a line that is not JSON"}
			}
			r.line = sc.Text()
			s.replies <- r
		}
		close(s.replies)
	}()
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + rev + `","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	r := s.next()
	var init struct {
		ProtocolVersion string `json:"protocolVersion"`
	}
	if r.Result == nil || json.Unmarshal(r.Result, &init) != nil {
		t.Fatalf("initialize failed: %s", r.line)
	}
	s.protocol, s.initResult = init.ProtocolVersion, r.Result
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// send writes one line.
func (s *rawStdio) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing to the server: %v (has it exited? %v)", err, s.cmd.ProcessState)
	}
}

// next returns the server's next line; a server that closed its stdout or
// stays silent fails the test.
func (s *rawStdio) next() rawReply {
	s.t.Helper()
	select {
	case r, ok := <-s.replies:
		if !ok {
			s.t.Fatal("the server closed stdout: it has exited")
		}
		return r
	case <-time.After(20 * time.Second):
		s.t.Fatal("no reply within 20s")
	}
	return rawReply{}
}
