// Package interop checks hostmcp against the official TypeScript MCP SDK
// client (client.mjs, pinned in package.json), over stdio and streamable
// HTTP. The e2e tests use the go-sdk the server is built on; a second,
// independent client catches what two halves of one SDK would agree on
// wrongly: schema dialects, annotations, transport headers.
package interop

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// summary is the one JSON line client.mjs prints.
type summary struct {
	OK        bool     `json:"ok"`
	Transport string   `json:"transport"`
	Failures  []string `json:"failures"`
	Server    *struct {
		Name    string `json:"name"`
		Version string `json:"version"`
	} `json:"server"`
	Capabilities []string `json:"capabilities"`
	Tools        int      `json:"tools"`
	Annotated    int      `json:"annotated"`
	Calls        map[string]struct {
		Success   bool `json:"success"`
		IsError   bool `json:"is_error"`
		Validated bool `json:"validated"`
	} `json:"calls"`
	Oversize *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"oversize"`
	Era *struct {
		ProtocolVersion  string   `json:"protocol_version"`
		Tools            int      `json:"tools"`
		WithOutputSchema int      `json:"with_output_schema"`
		WithTitle        int      `json:"with_title"`
		Extras           []string `json:"extras"`
		Logging          bool     `json:"logging"`
	} `json:"era"`
	Progress *struct {
		Count       int  `json:"count"`
		Increasing  bool `json:"increasing"`
		WithinTotal bool `json:"within_total"`
	} `json:"progress"`
	SetLevelBogus *int `json:"set_level_bogus"`
	Large         *struct {
		Handle string `json:"handle"`
		Link   *struct {
			Name     string `json:"name"`
			MIMEType string `json:"mimeType"`
			Size     int64  `json:"size"`
		} `json:"link"`
		ReadMIME string `json:"read_mime"`
		Listed   bool   `json:"listed"`
		Pagings  map[string]struct {
			Pages int  `json:"pages"`
			Whole bool `json:"whole"`
		} `json:"pagings"`
	} `json:"large"`
	Confirm *struct {
		DryRunNeeds         bool     `json:"dry_run_needs"`
		Asked               []string `json:"asked"`
		DeclinedCode        string   `json:"declined_code"`
		PresentAfterDecline bool     `json:"present_after_decline"`
		AcceptedSuccess     bool     `json:"accepted_success"`
		AcceptedCode        string   `json:"accepted_code"`
	} `json:"confirm"`
	// RateLimited counts the calls refused RATE_LIMITED, each waited out as
	// error.retry_after_ms advised and sent again, and how many of those
	// retries were refused again: the advice was too short.
	RateLimited *struct {
		Waits            int `json:"waits"`
		RefusedAfterWait int `json:"refused_after_wait"`
	} `json:"rate_limited"`
	Prompts           []string `json:"prompts"`
	Read              string   `json:"read"`
	ResourceTemplates []string `json:"resource_templates"`
}

func TestTypeScriptClient(t *testing.T) {
	testutil.Slow(t, "npm installs the TypeScript SDK and node runs it")
	node := requireBinary(t, "node")
	npm := requireBinary(t, "npm")
	ctx, cancel := context.WithTimeout(context.Background(), 8*time.Minute)
	defer cancel()

	dir, err := os.Getwd() // go test runs in the package directory: test/interop
	if err != nil {
		t.Fatal(err)
	}
	bin := buildServer(t, ctx)
	installModules(t, ctx, npm, dir)

	for _, tc := range []struct {
		name string
		args func(t *testing.T) []string
	}{
		{"stdio", func(t *testing.T) []string {
			return append([]string{"stdio", bin, "serve"}, serverFlags(t)...)
		}},
		{"http", func(t *testing.T) []string {
			url, token := startHTTP(t, ctx, bin)
			return []string{"http", url, token}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := runClient(t, ctx, node, dir, tc.args(t))
			checkSummary(t, got, tc.name)
		})
	}
}

// checkSummary asserts what the client saw, beyond its own ok flag, so a
// client that stopped checking something still fails here.
func checkSummary(t *testing.T, got summary, transport string) {
	t.Helper()
	if !got.OK || len(got.Failures) > 0 {
		t.Errorf("client reported failures:\n  %s", strings.Join(got.Failures, "\n  "))
	}
	if got.Transport != transport {
		t.Errorf("transport = %q, want %q", got.Transport, transport)
	}
	if got.Server == nil || got.Server.Name == "" {
		t.Errorf("serverInfo = %+v, want a name", got.Server)
	}
	for _, c := range []string{"prompts", "resources", "tools"} {
		if !slices.Contains(got.Capabilities, c) {
			t.Errorf("capabilities %v lack %q", got.Capabilities, c)
		}
	}
	if got.Tools == 0 || got.Annotated != got.Tools {
		t.Errorf("%d of %d tools carry all five annotations, want all", got.Annotated, got.Tools)
	}
	for _, name := range []string{"perf_info", "sys_snapshot"} {
		c, ok := got.Calls[name]
		if !ok || !c.Success || c.IsError || !c.Validated {
			t.Errorf("%s: got %+v (present %v), want success, no isError, validated against outputSchema", name, c, ok)
		}
	}
	if transport == "stdio" && (got.Oversize == nil || got.Oversize.Code != -32600 || !strings.Contains(got.Oversize.Message, "over the limit")) {
		t.Errorf("an oversized tools/call got %+v, want error -32600 naming the limit (a timeout is -32001: the reply's id was not the call's)", got.Oversize)
	}
	// The pinned SDK's own revision, 2025-06-18's fields and nothing of
	// 2026-07-28's: outputSchema and a title on every tool, structuredContent
	// in every result, no resultType or cache hints; and no logging.
	if e := got.Era; e == nil || e.ProtocolVersion != "2025-11-25" || e.Tools == 0 || e.WithOutputSchema != e.Tools || e.WithTitle != e.Tools || len(e.Extras) > 0 || e.Logging {
		t.Errorf("era check: %+v, want 2025-11-25 with outputSchema and title on every tool and nothing else out of place", e)
	}
	if p := got.Progress; p == nil || p.Count < 2 || !p.Increasing || !p.WithinTotal {
		t.Errorf("progress of perf_use_check: %+v, want several notifications, strictly increasing, within the total", p)
	}
	if got.SetLevelBogus == nil || *got.SetLevelBogus != -32602 {
		t.Errorf("logging/setLevel bogus answered %v, want -32602", got.SetLevelBogus)
	}
	if got.RateLimited == nil || got.RateLimited.Waits == 0 || got.RateLimited.RefusedAfterWait > 0 {
		t.Errorf("rate limit: %+v, want some calls refused and each retried once after error.retry_after_ms, successfully", got.RateLimited)
	}
	checkLarge(t, got)
	checkConfirm(t, got, transport)
	if len(got.Prompts) == 0 {
		t.Error("prompts/list returned no prompts")
	}
	if got.Read != interopText {
		t.Errorf("fs_read of the server's root, with the client's roots elsewhere, gave %q, want %q", got.Read, interopText)
	}
	if !slices.Contains(got.ResourceTemplates, "hostmcp://handle/{id}") {
		t.Errorf("resource templates %v lack hostmcp://handle/{id}", got.ResourceTemplates)
	}
}

// checkLarge asserts what the client saw of a large result: a resource link
// to its handle that resources/read and resources/list agree with, and
// handle_read paging it back whole, with the defaults and with the maximum
// limit, by lines and by bytes.
func checkLarge(t *testing.T, got summary) {
	t.Helper()
	l := got.Large
	if l == nil || l.Handle == "" {
		t.Errorf("fs_read of a 1 MB file gave no handle: %+v", l)
		return
	}
	if l.Link == nil || l.Link.Name == "" || l.Link.MIMEType != "text/plain" || l.Link.Size != int64(len(bigText())) {
		t.Errorf("resource_link to %s = %+v, want a name, text/plain and %d bytes", l.Handle, l.Link, len(bigText()))
	}
	if l.ReadMIME != "text/plain" || !l.Listed {
		t.Errorf("resources/read gave %q, listed in resources/list: %v", l.ReadMIME, l.Listed)
	}
	for _, name := range []string{"lines", "bytes", "lines_max", "bytes_max"} {
		if p, ok := l.Pagings[name]; !ok || !p.Whole || p.Pages < 2 {
			t.Errorf("handle_read paging %s: %+v (present %v), want the whole file in several pages", name, p, ok)
		}
	}
}

// checkConfirm asserts what the client saw of a recursive delete, which
// the default [confirm] asks about: over stdio the client is asked, its
// no leaves the tree and its yes deletes it; over HTTP at the SDK's
// 2025-11-25 no request can reach the client while a call waits, so both
// calls are refused and the tree stays.
func checkConfirm(t *testing.T, got summary, transport string) {
	t.Helper()
	c := got.Confirm
	if c == nil || !c.DryRunNeeds || !c.PresentAfterDecline {
		t.Fatalf("confirmation: %+v, want a dry run that would ask, and the tree there after a no", c)
	}
	_, err := os.Stat(os.Getenv("HOSTMCP_INTEROP_CONFIRM"))
	if transport == "stdio" {
		if len(c.Asked) != 2 || !strings.HasPrefix(c.Asked[0], "Delete ") || c.DeclinedCode != "DECLINED" || !c.AcceptedSuccess || !os.IsNotExist(err) {
			t.Errorf("over stdio: %+v (tree: %v), want two questions, DECLINED, then the tree deleted", c, err)
		}
		return
	}
	if len(c.Asked) != 0 || c.DeclinedCode != "CONFIRMATION_REQUIRED" || c.AcceptedCode != "CONFIRMATION_REQUIRED" || err != nil {
		t.Errorf("over HTTP: %+v (tree: %v), want no question, CONFIRMATION_REQUIRED twice, the tree there", c, err)
	}
}

// requireBinary finds a tool on PATH; without it the test skips, unless
// HOSTMCP_REQUIRE_PRIVILEGED=1 (CI), where a missing tool is a failure.
func requireBinary(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("HOSTMCP_REQUIRE_PRIVILEGED") == "1" {
		t.Fatalf("%s not found and HOSTMCP_REQUIRE_PRIVILEGED=1: run scripts/deps.sh", name)
	}
	t.Skipf("%s not found: %v", name, err)
	return ""
}

// buildServer builds ./cmd/hostmcp from the module root into a temp dir.
func buildServer(t *testing.T, ctx context.Context) string {
	t.Helper()
	gomod, err := exec.CommandContext(ctx, "go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	root := filepath.Dir(strings.TrimSpace(string(gomod)))
	bin := filepath.Join(t.TempDir(), "hostmcp")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/hostmcp")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/hostmcp: %v\n%s", err, out)
	}
	return bin
}

// installModules runs npm ci when node_modules is missing; the lock file
// pins every package, so the client is the same on every machine.
func installModules(t *testing.T, ctx context.Context, npm, dir string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json")); err == nil {
		return
	}
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}

// serverFlags gives the server a private state directory and root. The
// root holds interopFile, which the client reads while it lists a root of
// its own elsewhere (HOSTMCP_INTEROP_CLIENT_ROOT), as Claude Code lists the
// directory it was started in.
func serverFlags(t *testing.T) []string {
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, interopFile), []byte(interopText), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, bigFile), []byte(bigText()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOSTMCP_INTEROP_READ", filepath.Join(root, interopFile))
	t.Setenv("HOSTMCP_INTEROP_BIG", filepath.Join(root, bigFile))
	t.Setenv("HOSTMCP_INTEROP_CLIENT_ROOT", t.TempDir())
	cache := filepath.Join(root, "cache")
	for _, name := range []string{"a", "sub/b"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(cache, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(cache, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("HOSTMCP_INTEROP_CONFIRM", cache)
	conf := filepath.Join(t.TempDir(), "hostmcp.toml")
	if err := os.WriteFile(conf, []byte(tightRate), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{"--state-dir", t.TempDir(), "--root", root, "--config", conf}
}

// tightRate is a call rate the client's run outgrows on any machine, so
// that every run meets RATE_LIMITED and the client must wait what the
// server advised, as an agent would. With the default (50 per second,
// bursts of 100) only a fast machine reached the limit, and a client that
// did not wait failed there alone.
const tightRate = "[load]\ncalls_per_second = 20\nburst = 10\n"

const (
	interopFile = "interop.txt"
	interopText = "read through the TypeScript SDK\n"
	bigFile     = "big.txt"
)

// bigText is about 1 MB of lines full of what JSON escapes and of
// multi-byte UTF-8, so that its JSON form is far longer than its bytes. It
// stays under the 1 MiB one resources/read returns.
func bigText() string {
	var b strings.Builder
	for i := 0; b.Len() < 1000000; i++ {
		fmt.Fprintf(&b, "%06d \"quoted\\path\" \t\x01 é中🙂 %s\n", i, strings.Repeat(`"\`, i%40))
	}
	return b.String()
}

// runClient runs client.mjs and parses its summary line.
func runClient(t *testing.T, ctx context.Context, node, dir string, args []string) summary {
	t.Helper()
	ctx, cancel := context.WithTimeout(ctx, 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, append([]string{"client.mjs"}, args...)...)
	cmd.Dir = dir
	// A stdio server is node's child; if node is killed it must not keep
	// our pipes, and so Wait, open.
	cmd.WaitDelay = 5 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	if stderr.Len() > 0 {
		t.Logf("client stderr:\n%s", stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	var got summary
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &got); err != nil {
		t.Fatalf("client (exit: %v) printed no summary: %v\nstdout:\n%s", runErr, err, stdout.String())
	}
	if runErr != nil {
		t.Errorf("client: %v", runErr)
	}
	return got
}

// startHTTP starts `hostmcp serve --http` on a free loopback port with a
// fresh token, waits for /healthz, and stops that process (by its pid) when
// the test ends.
func startHTTP(t *testing.T, ctx context.Context, bin string) (url, token string) {
	t.Helper()
	addr := freeAddr(t)
	token = randomToken(t)
	cmd := exec.Command(bin, append([]string{"serve", "--http", addr}, serverFlags(t)...)...)
	cmd.Env = append(os.Environ(), "HOSTMCP_TOKEN="+token)
	logs := &lockedBuffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting hostmcp serve --http: %v", err)
	}
	// exited is closed once the process is reaped, so both the health wait
	// and the cleanup can watch it.
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
		if t.Failed() {
			t.Logf("server output:\n%s", logs.String())
		}
	})
	base := "http://" + addr
	if err := waitHealthy(ctx, base+"/healthz", exited, cmd); err != nil {
		t.Fatalf("%v\nserver output:\n%s", err, logs.String())
	}
	return base + "/mcp", token
}

// waitHealthy polls url until it answers 200, the server exits, or 30s pass.
func waitHealthy(ctx context.Context, url string, exited <-chan struct{}, cmd *exec.Cmd) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	client := &http.Client{Timeout: time.Second}
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := client.Do(req); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-exited:
			return fmt.Errorf("server exited (%v) before %s answered", cmd.ProcessState, url)
		case <-ctx.Done():
			return fmt.Errorf("waiting for %s: %w", url, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// freeAddr finds a free loopback port by listening on :0 and closing.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

func randomToken(t *testing.T) string {
	t.Helper()
	b := make([]byte, 24)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// lockedBuffer collects the server's output while the test reads it.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
