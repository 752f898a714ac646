package bench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// The driver that times calls through the official TypeScript SDK client
// (the client issue 20 was measured with), and the SDK it imports, which
// scripts/deps.sh installs in bench/peers from its lock file.
const (
	tsDriverScript = "peers/driver.mjs"
	tsSDK          = "peers/node_modules/@modelcontextprotocol/sdk/package.json"
)

// tsDriver is one driver.mjs with the server it started: one request at a
// time, answered in order.
type tsDriver struct {
	cmd       *exec.Cmd
	requests  io.WriteCloser
	answers   *bufio.Reader
	serverPid int // the server's, node's child, for its CPU and memory
	tools     int // how many tools the server listed
}

// tsAnswer is the driver's answer to one request.
type tsAnswer struct {
	Ms      float64         `json:"ms"`    // the SDK's call, as performance.now() timed it
	Bytes   int             `json:"bytes"` // the result as JSON
	IsError bool            `json:"isError"`
	Error   string          `json:"error"` // the call threw: a protocol error or an answer the SDK refused
	Result  json.RawMessage `json:"result"`
}

func (a tsAnswer) took() time.Duration { return time.Duration(a.Ms * float64(time.Millisecond)) }

// tsDriverMissing says what the driver lacks on this machine (node, the
// SDK's modules, the script), or "" when nothing.
func tsDriverMissing() string {
	if _, err := exec.LookPath("node"); err != nil {
		return fmt.Sprintf("node: %v", err)
	}
	for _, p := range []string{tsDriverScript, tsSDK} {
		if _, err := os.Stat(p); err != nil {
			return err.Error()
		}
	}
	return ""
}

// startTSDriver starts the driver on the stdio server command server and
// waits until the client has connected and listed the tools; a machine
// without node or the SDK fails the benchmark, as one without the
// reference server does. The driver, and with it the server, ends with tb.
func startTSDriver(tb testing.TB, server ...string) *tsDriver {
	tb.Helper()
	if missing := tsDriverMissing(); missing != "" {
		tb.Fatalf("the TypeScript SDK driver cannot run (%s): run scripts/deps.sh", missing)
	}
	cmd := exec.Command("node", append([]string{tsDriverScript}, server...)...)
	cmd.Stderr = os.Stderr
	// If the driver hangs past its stdin's end, Wait gives up on its
	// pipes after this long rather than holding the benchmark.
	cmd.WaitDelay = 5 * time.Second
	requests, err := cmd.StdinPipe()
	if err != nil {
		tb.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		tb.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		tb.Fatalf("starting the TypeScript SDK driver: %v", err)
	}
	d := &tsDriver{cmd: cmd, requests: requests, answers: bufio.NewReaderSize(out, 1<<16)}
	tb.Cleanup(d.close)
	var ready struct {
		Ready bool   `json:"ready"`
		Tools int    `json:"tools"`
		Pid   int    `json:"pid"`
		Error string `json:"error"`
	}
	if err := json.Unmarshal(d.line(tb), &ready); err != nil || !ready.Ready || ready.Pid == 0 {
		tb.Fatalf("the TypeScript SDK driver did not connect to %v: %+v %v", server, ready, err)
	}
	d.serverPid, d.tools = ready.Pid, ready.Tools
	return d
}

// startTSHostmcp starts hostmcp (the binary bin) under the driver as
// connectConfig starts it under the go-sdk client.
func startTSHostmcp(tb testing.TB, bin, root, configTOML string) *tsDriver {
	tb.Helper()
	return startTSDriver(tb, append([]string{bin}, serveArgs(tb, root, configTOML)...)...)
}

// startTSReference starts the reference filesystem server under the
// driver, with root as its only allowed directory.
func startTSReference(tb testing.TB, root string) *tsDriver {
	tb.Helper()
	if _, err := os.Stat(referenceServer); err != nil {
		tb.Fatalf("the reference filesystem server is not installed (%v): run scripts/deps.sh", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Fatalf("node: %v (scripts/deps.sh installs it)", err)
	}
	return startTSDriver(tb, node, referenceServer, root)
}

// close ends the driver's input, on which it closes its client, which
// ends the server, and waits for it.
func (d *tsDriver) close() {
	_ = d.requests.Close()
	_ = d.cmd.Wait()
}

// line reads the driver's next answer line.
func (d *tsDriver) line(tb testing.TB) []byte {
	tb.Helper()
	line, err := d.answers.ReadBytes('\n')
	if err != nil {
		tb.Fatalf("the TypeScript SDK driver stopped answering: %v", err)
	}
	return line
}

// request sends one request and returns its answer.
func (d *tsDriver) request(tb testing.TB, req map[string]any) tsAnswer {
	tb.Helper()
	raw, err := json.Marshal(req)
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := d.requests.Write(append(raw, '\n')); err != nil {
		tb.Fatalf("the TypeScript SDK driver stopped reading: %v", err)
	}
	var a tsAnswer
	if err := json.Unmarshal(d.line(tb), &a); err != nil {
		tb.Fatalf("the TypeScript SDK driver's answer to %s: %v", raw, err)
	}
	return a
}

// call is one successful tools/call through the TypeScript SDK client.
func (d *tsDriver) call(tb testing.TB, tool string, args map[string]any) tsAnswer {
	tb.Helper()
	a := d.request(tb, map[string]any{"tool": tool, "args": args})
	if a.Error != "" || a.IsError {
		tb.Fatalf("%s through the TypeScript SDK client: error %q, isError %v", tool, a.Error, a.IsError)
	}
	return a
}

// timeCall is call's duration, for loopPairsTimed.
func (d *tsDriver) timeCall(tb testing.TB, tool string, args map[string]any) func() time.Duration {
	return func() time.Duration { return d.call(tb, tool, args).took() }
}

// timeServerCall is timeCall that also adds the CPU the server used
// during the call to cpu (from /proc, in 10 ms ticks: summed over many
// calls).
func (d *tsDriver) timeServerCall(tb *testing.B, cpu *time.Duration, tool string, args map[string]any) func() time.Duration {
	return func() time.Duration {
		c0 := processCPU(tb, d.serverPid)
		took := d.call(tb, tool, args).took()
		*cpu += processCPU(tb, d.serverPid) - c0
		return took
	}
}

// ping is one successful ping through the TypeScript SDK client.
func (d *tsDriver) ping(tb testing.TB) time.Duration {
	tb.Helper()
	a := d.request(tb, map[string]any{"ping": true})
	if a.Error != "" {
		tb.Fatalf("ping through the TypeScript SDK client: %s", a.Error)
	}
	return a.took()
}

// TestTSDriver runs the driver against hostmcp and the reference server
// and checks what the benchmarks rely on: the tools listed, an answer as
// the SDK gave it, its size, a timed call and ping, a tool error and a
// refused call told apart, and the driver answering on after both.
func TestTSDriver(t *testing.T) {
	testutil.Slow(t, "builds hostmcp and runs the TypeScript SDK client in node")
	if missing := tsDriverMissing(); missing != "" {
		testutil.Missing(t, "the TypeScript SDK driver cannot run (%s): run scripts/deps.sh", missing)
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const text = "read through the TypeScript SDK \"driver\"\n"
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	bin := binary
	if bin == "" {
		bin = forTests.Path(t)
	}
	d := startTSHostmcp(t, bin, root, "")
	if d.tools == 0 {
		t.Error("hostmcp listed no tools to the driver")
	}
	a := d.request(t, map[string]any{"tool": "fs_read", "args": map[string]any{"path": "a.txt"}, "show": true})
	var res struct {
		StructuredContent struct {
			Success bool `json:"success"`
			Data    struct {
				Content string `json:"content"`
			} `json:"data"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(a.Result, &res); err != nil || a.Error != "" || a.IsError {
		t.Fatalf("fs_read: %+v (%v)", a, err)
	}
	if !res.StructuredContent.Success || res.StructuredContent.Data.Content != text {
		t.Errorf("fs_read through the driver gave %s, want success and %q", a.Result, text)
	}
	if a.Ms <= 0 || a.Bytes != len(a.Result) {
		t.Errorf("fs_read took %v ms, %d bytes; want a time and the result's %d bytes", a.Ms, a.Bytes, len(a.Result))
	}
	if ms := d.ping(t); ms <= 0 {
		t.Errorf("ping took %v", ms)
	}
	if a := d.request(t, map[string]any{"tool": "fs_read", "args": map[string]any{"path": "missing.txt"}}); !a.IsError || a.Error != "" || a.Ms <= 0 {
		t.Errorf("fs_read of a missing file: %+v, want a timed result with isError", a)
	}
	if a := d.request(t, map[string]any{"tool": "no_such_tool"}); a.Error == "" || a.IsError {
		t.Errorf("an unknown tool: %+v, want the call refused", a)
	}
	d.call(t, "fs_read", map[string]any{"path": "a.txt"})

	ref := startTSReference(t, root)
	if a := ref.call(t, "read_text_file", map[string]any{"path": filepath.Join(root, "a.txt")}); a.Ms <= 0 || a.Bytes < len(text) {
		t.Errorf("the reference server's read_text_file: %+v", a)
	}
}
