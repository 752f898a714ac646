package e2e

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// The MCP Apps extension's names, as a client sees them: spelled out here
// rather than taken from the server's package, so that a change there that
// breaks clients breaks these tests too.
const (
	appsExtension = "io.modelcontextprotocol/ui"
	appsMIME      = "text/html;profile=mcp-app"
	profileView   = "ui://hostmcp/profile-view"
)

// appsCapabilities are those of a client that renders MCP Apps.
func appsCapabilities() *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{}
	c.AddExtension(appsExtension, map[string]any{"mimeTypes": []string{appsMIME}})
	return c
}

// connectApps starts `hostmcp serve` and connects a client that declares
// the MCP Apps extension, as Claude Desktop or VS Code do.
func (e *env) connectApps(t *testing.T, ctx context.Context) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-apps", Version: "1"}, &mcp.ClientOptions{Capabilities: appsCapabilities()})
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connecting over stdio: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

//go:embed testdata/apphost.html
var appHostPage []byte

// hostDefaultCSP is what the extension tells a host to enforce on a view
// that declares no domain (as hostmcp's declares none), with the sandbox
// proxy's frame, object and base rules.
const hostDefaultCSP = "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"

// appHost is a test host of the MCP Apps extension, in headless Chromium:
// a loopback HTTP server gives the browser the host page
// (testdata/apphost.html), the view's HTML with the host's CSP, the call to
// pass it, and resources/read through the client session cs.
type appHost struct {
	t         *testing.T
	srv       *httptest.Server
	browser   context.Context
	cs        *mcp.ClientSession
	mu        sync.Mutex
	page      []byte // the view, as served
	config    appHostConfig
	requests  []string // every path the browser asked this server for
	problems  []string // errors the browser reported: exceptions, CSP violations
	artifacts string   // where screenshots go, made on the first
}

// appHostConfig is what the host page passes the view.
type appHostConfig struct {
	ToolInput        map[string]any      `json:"toolInput"`
	ToolResult       *mcp.CallToolResult `json:"toolResult"`
	HostCapabilities map[string]any      `json:"hostCapabilities"`
	HostContext      map[string]any      `json:"hostContext"`
}

// newAppHost starts the host's server and a headless Chromium, both ended
// at the test's end.
func newAppHost(t *testing.T, cs *mcp.ClientSession) *appHost {
	t.Helper()
	chrome := requireChromium(t)
	h := &appHost{t: t, cs: cs}
	h.srv = httptest.NewServer(http.HandlerFunc(h.serve))
	t.Cleanup(h.srv.Close)
	// The flags this machine needs (no sandbox as root, no background
	// connections to a closed network) and a frame of the sandboxed view
	// kept in the page's process, where the test can look into it.
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(chrome),
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1100, 1000),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-site-isolation-trials", true),
		chromedp.Flag("disable-features", "IsolateSandboxedIframes,site-per-process,Translate"),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	bctx, cancelBrowser := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelBrowser(); cancelAlloc() })
	if err := chromedp.Do(bctx); err != nil {
		t.Fatalf("starting %s: %v", chrome, err)
	}
	h.browser = bctx
	return h
}

// requireChromium needs chromium, and a run that is not -short: a browser
// per test is slow by nature. It returns chromium's path.
func requireChromium(t *testing.T) string {
	t.Helper()
	testutil.Slow(t, "drives headless Chromium")
	return testutil.RequireBinary(t, "chromium")
}

func (h *appHost) serve(w http.ResponseWriter, r *http.Request) {
	h.mu.Lock()
	h.requests = append(h.requests, r.URL.Path)
	page, config := h.page, h.config
	h.mu.Unlock()
	switch r.URL.Path {
	case "/host":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = w.Write(appHostPage)
	case "/view":
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Content-Security-Policy", hostDefaultCSP)
		_, _ = w.Write(page)
	case "/config":
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(config)
	case "/resources/read":
		var p mcp.ReadResourceParams
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := h.cs.ReadResource(r.Context(), &p)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		_ = json.NewEncoder(w).Encode(res)
	default:
		http.NotFound(w, r)
	}
}

// show renders page in a new tab, passing it the call (input, result) the
// way a host does, and returns the tab once the view has drawn what ready
// (a JavaScript expression over the view's document) finds.
func (h *appHost) show(page []byte, config appHostConfig, ready string) context.Context {
	h.t.Helper()
	h.mu.Lock()
	h.page, h.config, h.requests, h.problems = page, config, nil, nil
	h.mu.Unlock()
	tab, cancel := chromedp.NewContext(h.browser)
	h.t.Cleanup(cancel)
	err := chromedp.Listen(tab, func(ev any) {
		var problem string
		switch ev := ev.(type) {
		case *runtime.EventExceptionThrown:
			problem = "exception: " + ev.ExceptionDetails.Text
			if ex := ev.ExceptionDetails.Exception; ex != nil {
				problem += " " + ex.Description
			}
		case *runtime.EventConsoleAPICalled:
			if ev.Type == runtime.ConsoleAPICalledTypeError {
				problem = "console.error"
				for _, a := range ev.Args {
					problem += " " + string(a.Value) + a.Description
				}
			}
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.EntryLevelError && !strings.HasSuffix(ev.Entry.URL, "/favicon.ico") {
				problem = fmt.Sprintf("%s: %s", ev.Entry.Source, ev.Entry.Text)
			}
		}
		if problem != "" {
			h.mu.Lock()
			h.problems = append(h.problems, problem)
			h.mu.Unlock()
		}
	})
	if err != nil {
		h.t.Fatalf("opening a tab: %v", err)
	}
	if _, err := chromedp.Call(tab, cdplog.Enable, cdp.Empty{}); err != nil {
		h.t.Fatal(err)
	}
	if _, err := chromedp.Call(tab, runtime.Enable, cdp.Empty{}); err != nil {
		h.t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(h.srv.URL+"/host")); err != nil {
		h.t.Fatalf("opening the host page: %v", err)
	}
	if ready != "" {
		h.waitInView(tab, ready)
	}
	return tab
}

// waitInView waits, up to a generous bound for a loaded machine, until
// expr is true in the view's frame.
func (h *appHost) waitInView(tab context.Context, expr string) {
	h.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		var ok bool
		err := h.inView(tab, "Boolean("+expr+")", &ok)
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			h.t.Fatalf("the view never showed %s (last error: %v); the browser reported %v; the host log: %s", expr, err, h.browserProblems(), h.hostLog(tab))
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// inView evaluates expr in the view's frame (a world of the test's own
// over its document) and decodes its value into out.
func (h *appHost) inView(tab context.Context, expr string, out any) error {
	tree, err := chromedp.Call(tab, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		return err
	}
	var frame cdp.FrameID
	for _, c := range tree.FrameTree.ChildFrames {
		if strings.HasSuffix(c.Frame.URL, "/view") {
			frame = c.Frame.ID
		}
	}
	if frame == "" {
		return fmt.Errorf("the host page has no view frame yet")
	}
	world, err := chromedp.Call(tab, page.CreateIsolatedWorld, page.CreateIsolatedWorldParams{FrameID: frame, WorldName: "e2e"})
	if err != nil {
		return err
	}
	byValue := true
	res, err := chromedp.Call(tab, runtime.Evaluate, runtime.EvaluateParams{Expression: expr, ContextID: world.ExecutionContextID, ReturnByValue: &byValue})
	if err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("evaluating in the view: %s", res.ExceptionDetails.Text)
	}
	return json.Unmarshal(res.Result.Value, out)
}

// hostLog is every message the view sent the host, as JSON.
func (h *appHost) hostLog(tab context.Context) string {
	s, err := chromedp.Run(tab, chromedp.Evaluate[string]("JSON.stringify(window.hostLog)"))
	if err != nil {
		return err.Error()
	}
	return s
}

// viewMessages are the messages the view sent the host.
func (h *appHost) viewMessages(tab context.Context) []struct {
	ID     any             `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
} {
	h.t.Helper()
	var out []struct {
		ID     any             `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal([]byte(h.hostLog(tab)), &out); err != nil {
		h.t.Fatalf("the host log: %v", err)
	}
	return out
}

func (h *appHost) browserProblems() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.problems...)
}

func (h *appHost) requested() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.requests...)
}

// screenshot keeps a picture of the tab as name in the test's artifact
// directory.
func (h *appHost) screenshot(tab context.Context, name string) {
	h.t.Helper()
	png, err := chromedp.Run(tab, chromedp.FullScreenshot(100))
	if err != nil {
		h.t.Fatalf("screenshot: %v", err)
	}
	if h.artifacts == "" {
		h.artifacts = viewArtifacts(h.t)
	}
	path := filepath.Join(h.artifacts, name)
	if err := os.WriteFile(path, png, 0o644); err != nil {
		h.t.Fatal(err)
	}
	h.t.Logf("screenshot of the view: %s", path)
}

// viewArtifacts makes the directory a test keeps its screenshots in, and
// names it in the log: under $HOSTMCP_TEST_ARTIFACTS, else the system's
// temporary directory, hostmcp-view-TEST-TIME. The same test's directories
// of earlier runs are removed first, unless made in the last ten minutes:
// those may be another run's, going on now on this shared machine.
func viewArtifacts(t *testing.T) string {
	t.Helper()
	base := os.Getenv("HOSTMCP_TEST_ARTIFACTS")
	if base == "" {
		base = os.TempDir()
	}
	prefix := "hostmcp-view-" + strings.ReplaceAll(t.Name(), "/", "_") + "-"
	old, _ := filepath.Glob(filepath.Join(base, prefix+"*"))
	for _, d := range old {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && time.Since(fi.ModTime()) > 10*time.Minute {
			_ = os.RemoveAll(d)
		}
	}
	dir := filepath.Join(base, prefix+time.Now().UTC().Format("20060102T150405.000Z"))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("the artifact directory: %v", err)
	}
	t.Logf("screenshots of this test: %s", dir)
	return dir
}
