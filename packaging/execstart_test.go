package main

import (
	"bufio"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// bearer adds the token to every request, as the client snippets do.
type bearer string

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}

var listening = regexp.MustCompile(`serving MCP over HTTP.*addr=(\S+)`)

// The unit's ExecStart, run as systemd would run it (the token handed over
// as a credential: a private copy, mode 0400, in $CREDENTIALS_DIRECTORY;
// $STATE_DIRECTORY made 0700; root with only the unit's capabilities and
// no new privileges) serves HTTP to a client holding the token, with the
// packaged configuration, and logs each request at its default level. The
// port is the one difference: 0 rather than 8765, which may be taken here.
func TestUnitExecStartServes(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "setpriv")
	line := unitSetting(t, "ExecStart")
	creds, state := t.TempDir(), filepath.Join(t.TempDir(), "hostmcp")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	if err := os.WriteFile(filepath.Join(creds, "token"), []byte(token), 0o400); err != nil {
		t.Fatal(err)
	}
	line = strings.NewReplacer("${CREDENTIALS_DIRECTORY}", creds, "${STATE_DIRECTORY}", state,
		"/usr/bin/hostmcp", hostmcp.Path(t), "/etc/hostmcp/hostmcp.toml", "hostmcp.toml", "127.0.0.1:8765", "127.0.0.1:0").Replace(line)
	if strings.Contains(line, "$") {
		t.Fatalf("ExecStart has a variable the test does not set: %s", line)
	}
	bounding := "-all"
	for _, c := range strings.Fields(unitSetting(t, "CapabilityBoundingSet")) {
		bounding += ",+" + strings.ToLower(strings.TrimPrefix(c, "CAP_"))
	}
	args := append([]string{"--bounding-set=" + bounding, "--inh-caps=-all", "--no-new-privs"}, strings.Fields(line)...)
	cmd := exec.Command("setpriv", args...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"} // systemd's, without HOSTMCP_TOKEN
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logs := make(chan string, 100)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			t.Logf("service: %s", sc.Text())
			logs <- sc.Text()
		}
		close(logs)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM) // the process this test started
		_ = cmd.Wait()
	})
	var addr string
	timeout := time.After(30 * time.Second)
	for addr == "" {
		select {
		case l, ok := <-logs:
			if !ok {
				t.Fatal("the service exited before listening")
			}
			if m := listening.FindStringSubmatch(l); m != nil {
				addr = m[1]
			}
		case <-timeout:
			t.Fatal("the service did not listen")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "packaging-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp", HTTPClient: &http.Client{Transport: bearer(token)}}, nil)
	if err != nil {
		t.Fatalf("connecting with the credential's token: %v", err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range tools.Tools {
		if strings.HasPrefix(tl.Name, "proc_start") {
			t.Errorf("the packaged configuration serves %s; repl is left out", tl.Name)
		}
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sys_snapshot", Arguments: map[string]any{}}); err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get("http://" + addr + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("without the token: %d, want 401", resp.StatusCode)
	}
	deadline := time.After(10 * time.Second)
	for {
		select {
		case l := <-logs:
			if strings.Contains(l, `msg="http request"`) && strings.Contains(l, "tool=sys_snapshot") {
				return
			}
		case <-deadline:
			t.Fatal("no access log line for the call at the service's default level")
		}
	}
}
