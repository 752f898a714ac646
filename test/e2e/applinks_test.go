package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// viewedTools are the tools whose results the view draws.
var viewedTools = []string{"perf_bio_latency", "perf_cpu_profile", "perf_io_latency", "perf_offcpu_profile", "perf_runq_latency", "perf_sched_latency"}

// viewLinks lists the tools that point to a view, and checks that each
// points to hostmcp's, in both of the extension's keys.
func viewLinks(t *testing.T, ctx context.Context, cs *mcp.ClientSession) []string {
	t.Helper()
	var linked []string
	for name, tl := range listTools(t, ctx, cs) {
		_, flat := tl.Meta["ui/resourceUri"]
		if tl.Meta["ui"] == nil && !flat {
			continue
		}
		linked = append(linked, name)
		if linkedView(tl) != profileView || tl.Meta["ui/resourceUri"] != profileView {
			t.Errorf("%s: _meta %v", name, tl.Meta)
		}
	}
	slices.Sort(linked)
	return linked
}

// listsView reports whether resources/list lists the view.
func listsView(t *testing.T, ctx context.Context, cs *mcp.ClientSession) bool {
	t.Helper()
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	return slices.ContainsFunc(list.Resources, func(r *mcp.Resource) bool { return r.URI == profileView })
}

// A client that does not declare MCP Apps (Claude Code) sees no view in
// tools/list or resources/list, and gets today's answer: the envelope as
// text, the same as the structured content, with nothing added. A client
// that declares them sees the six profiling and tracing tools point to the
// view, and gets the same kind of answer.
func TestClientsWithoutAppsGetNoViewAndTodaysText(t *testing.T) {
	t.Parallel() // most of it is two 1 s latency windows
	ctx := testCtx(t)
	e := newEnv(t, "")
	plain := e.connectStdio(t, ctx)
	apps := e.connectApps(t, ctx)
	if got := viewLinks(t, ctx, plain); len(got) != 0 {
		t.Errorf("a client without MCP Apps: %v point to a view", got)
	}
	if listsView(t, ctx, plain) {
		t.Error("a client without MCP Apps: resources/list lists the view")
	}
	if got := viewLinks(t, ctx, apps); !slices.Equal(got, viewedTools) {
		t.Errorf("a client with MCP Apps: %v point to the view, want %v", got, viewedTools)
	}
	if !listsView(t, ctx, apps) {
		t.Error("a client with MCP Apps: resources/list does not list the view")
	}
	for name, cs := range map[string]*mcp.ClientSession{"without MCP Apps": plain, "with MCP Apps": apps} {
		env, res := call(t, ctx, cs, listTools(t, ctx, cs), "perf_io_latency", map[string]any{"duration_seconds": 1})
		_, ui := res.Meta["ui"]
		if !env.Success || len(res.Content) != 1 || ui {
			t.Errorf("%s: perf_io_latency answered %d content items, _meta %v, success %v; want the envelope's text alone", name, len(res.Content), res.Meta, env.Success)
		}
		var data map[string]json.RawMessage
		if err := json.Unmarshal(env.Data, &data); err != nil || data["devices"] == nil || data["mechanism"] == nil {
			t.Errorf("%s: data %s", name, env.Data)
		}
	}
}

// Over stateless HTTP a request of a revision before 2026-07-28 does not
// carry the capabilities the client declared at initialize, so the server
// cannot tell a client with MCP Apps and shows none the view, unless
// [views] mcp_apps = "always"; a 2026-07-28 request carries them.
func TestViewsOverHTTPFollowTheRequestsCapabilities(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		config string
		rev    string
		apps   bool
		want   bool
	}{
		{"", "2025-11-25", true, false},
		{"", "2026-07-28", true, true},
		{"", "2026-07-28", false, false},
		{"[views]\nmcp_apps = \"always\"\n", "2025-11-25", false, true},
		{"[views]\nmcp_apps = \"always\"\n", "2025-03-26", false, false},
		{"[views]\nmcp_apps = \"off\"\n", "2026-07-28", true, false},
	} {
		name := tc.rev
		if tc.apps {
			name += "/apps"
		}
		if tc.config != "" {
			name += "/" + tc.config[len("[views]\nmcp_apps = \""):len(tc.config)-2]
		}
		t.Run(name, func(t *testing.T) {
			ctx := testCtx(t)
			s := newEnv(t, tc.config).startHTTP(t, testToken, "127.0.0.1:0")
			var opts *mcp.ClientOptions
			if tc.apps {
				opts = &mcp.ClientOptions{Capabilities: appsCapabilities()}
			}
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http-apps", Version: "1"}, opts)
			cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: &http.Client{Transport: bearerTransport{testToken}}},
				&mcp.ClientSessionOptions{ProtocolVersion: tc.rev})
			if err != nil {
				t.Fatalf("connecting at %s: %v", tc.rev, err)
			}
			defer cs.Close()
			got := viewLinks(t, ctx, cs)
			if want := tc.want; (len(got) > 0) != want || (want && !slices.Equal(got, viewedTools)) {
				t.Errorf("tools pointing to the view: %v, want them: %v", got, want)
			}
			if listsView(t, ctx, cs) != tc.want {
				t.Errorf("resources/list lists the view: %v, want %v", !tc.want, tc.want)
			}
		})
	}
}

// A client without MCP Apps keeps today's answer of perf_cpu_profile: the
// envelope as text with the top functions and hottest stacks, and a
// resource link for each artifact (flame graph SVG, collapsed stacks,
// pprof); nothing in it names the view.
func TestClientsWithoutAppsKeepTheProfilesTextAndLinks(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	e := newEnv(t, "")
	cs := e.connectStdio(t, ctx)
	pid := startBurner(t)
	env, res := call(t, ctx, cs, listTools(t, ctx, cs), "perf_cpu_profile", map[string]any{"duration_seconds": 1, "pid": pid})
	var data struct {
		Summary struct {
			TopSelf   []json.RawMessage `json:"top_functions_self"`
			HotStacks []json.RawMessage `json:"hottest_stacks"`
		} `json:"summary"`
		Artifacts []struct {
			Type string `json:"type"`
			URI  string `json:"uri"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(env.Data, &data); err != nil || !env.Success || len(data.Summary.TopSelf) == 0 || len(data.Summary.HotStacks) == 0 {
		t.Fatalf("perf_cpu_profile: %v %+v %s", err, env.Error, env.Data)
	}
	var types, links []string
	for _, a := range data.Artifacts {
		types = append(types, a.Type)
	}
	for _, c := range res.Content[1:] {
		if l, ok := c.(*mcp.ResourceLink); ok {
			links = append(links, l.URI)
		}
	}
	slices.Sort(types)
	if !slices.Equal(types, []string{"collapsed", "flamegraph", "pprof"}) || len(links) != len(data.Artifacts) {
		t.Errorf("artifacts %v, resource links %v: want a link for each of the three", types, links)
	}
	for _, a := range data.Artifacts {
		if !slices.Contains(links, a.URI) {
			t.Errorf("no resource link to the %s artifact %s", a.Type, a.URI)
		}
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if _, ui := res.Meta["ui"]; ui || strings.Contains(text, "ui://") || slices.ContainsFunc(links, func(u string) bool { return strings.HasPrefix(u, "ui://") }) {
		t.Errorf("the answer names a view: _meta %v, links %v", res.Meta, links)
	}
	if !strings.Contains(text, "top_functions_self") || !strings.Contains(text, "main.burnForView") {
		t.Errorf("the text lacks the top functions: %.300s", text)
	}
}
