package server

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/view"
)

// appsCaps declares the MCP Apps extension for the given MIME types.
func appsCaps(mimeTypes ...string) *mcp.ClientCapabilities {
	c := &mcp.ClientCapabilities{}
	c.AddExtension(view.Extension, map[string]any{"mimeTypes": mimeTypes})
	return c
}

// connectAs connects an in-memory client with caps at protocol revision rev
// ("" for the SDK's default) to a server whose files_a tool has a view,
// configured with [views] mcp_apps = apps.
func connectAs(t *testing.T, apps string, caps *mcp.ClientCapabilities, rev string) *mcp.ClientSession {
	t.Helper()
	s := newServer(t, func(c *config.Config) { c.Views.MCPApps = apps })
	s.tools["files_a"].Spec.View = view.URI // the definitions are this server's own
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := s.MCP().Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ClientOptions{Capabilities: caps}).
		Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// A client that renders MCP Apps finds the page from each tool that has
// one, and in resources/list; any other client, or one too old for _meta
// on tools, sees the lists as they were, and every client gets the same
// result from a call.
func TestViewsAreLinkedForClientsThatRenderApps(t *testing.T) {
	noSettings := &mcp.ClientCapabilities{}
	noSettings.AddExtension(view.Extension, nil)
	tests := []struct {
		name   string
		apps   string
		caps   *mcp.ClientCapabilities
		rev    string
		linked bool
	}{
		{"apps", config.ViewsAuto, appsCaps(view.MIMEType), "", true},
		{"apps among other types", config.ViewsAuto, appsCaps("text/html+skybridge", view.MIMEType), "", true},
		{"apps at 2025-06-18", config.ViewsAuto, appsCaps(view.MIMEType), rev20250618, true},
		{"apps before tools had _meta", config.ViewsAuto, appsCaps(view.MIMEType), rev20250326, false},
		{"no extension", config.ViewsAuto, &mcp.ClientCapabilities{}, "", false},
		{"the extension for another MIME type", config.ViewsAuto, appsCaps("text/html+skybridge"), "", false},
		{"the extension with no settings", config.ViewsAuto, noSettings, "", false},
		{"always, no extension", config.ViewsAlways, &mcp.ClientCapabilities{}, "", true},
		{"always, before tools had _meta", config.ViewsAlways, &mcp.ClientCapabilities{}, rev20250326, false},
		{"off, apps", config.ViewsOff, appsCaps(view.MIMEType), "", false},
	}
	var results []string
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs := connectAs(t, tc.apps, tc.caps, tc.rev)
			ctx := context.Background()
			tools, err := cs.ListTools(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, tl := range tools.Tools {
				wantLink := tc.linked && tl.Name == "files_a"
				if got := tl.Meta != nil && tl.Meta["ui"] != nil; got != wantLink {
					t.Errorf("%s: _meta %v, want the view linked: %v", tl.Name, tl.Meta, wantLink)
				}
				if !wantLink {
					continue
				}
				b, _ := json.Marshal(tl.Meta)
				want := `{"ui":{"resourceUri":"ui://hostmcp/profile-view","visibility":["model"]},"ui/resourceUri":"ui://hostmcp/profile-view"}`
				if diff := cmp.Diff(want, string(b)); diff != "" {
					t.Errorf("%s: _meta (-want +got):\n%s", tl.Name, diff)
				}
			}
			list, err := cs.ListResources(ctx, nil)
			if err != nil {
				t.Fatal(err)
			}
			listed := len(list.Resources) > 0 && list.Resources[0].URI == view.URI
			if listed != tc.linked {
				t.Errorf("resources/list lists the view: %v, want %v", listed, tc.linked)
			}
			if listed && (list.Resources[0].MIMEType != view.MIMEType || list.Resources[0].Meta["ui"] == nil) {
				t.Errorf("the view's listing: %+v", list.Resources[0])
			}
			// Every client may read the page, which holds no data, unless
			// it is off.
			rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: view.URI})
			if tc.apps == config.ViewsOff {
				if err == nil {
					t.Errorf("resources/read %s with views off: served", view.URI)
				}
				return
			}
			if err != nil {
				t.Fatalf("resources/read %s: %v", view.URI, err)
			}
			c := rr.Contents[0]
			if c.MIMEType != view.MIMEType || !strings.HasPrefix(c.Text, "<!DOCTYPE html>") || c.Text != string(view.HTML()) {
				t.Errorf("resources/read: MIME %q, %d bytes of text", c.MIMEType, len(c.Text))
			}
			if b, _ := json.Marshal(c.Meta); string(b) != `{"ui":{"csp":{},"prefersBorder":true}}` {
				t.Errorf("the page's _meta: %s", b)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "files_a", Arguments: map[string]any{"content": "abc"}})
			if err != nil {
				t.Fatal(err)
			}
			results = append(results, res.Content[0].(*mcp.TextContent).Text)
		})
	}
	for i, r := range results {
		var env map[string]any
		if err := json.Unmarshal([]byte(r), &env); err != nil || env["success"] != true {
			t.Fatalf("result %d: %s", i, r)
		}
		if got, want := env["data"], map[string]any{"n": 3.0}; !cmp.Equal(got, want) {
			t.Errorf("result %d: data %v, want %v for every client", i, got, want)
		}
	}
}

// A request of 2026-07-28 carries the client's capabilities in its own
// _meta, as stateless HTTP needs; one with none is no app client.
func TestRendersAppsReadsARequestsOwnCapabilities(t *testing.T) {
	withCaps := func(caps any) *mcp.ListToolsRequest {
		return &mcp.ListToolsRequest{Params: &mcp.ListToolsParams{Meta: mcp.Meta{
			mcp.MetaKeyProtocolVersion:    rev20260728,
			mcp.MetaKeyClientCapabilities: caps,
		}}}
	}
	wire := map[string]any{"extensions": map[string]any{view.Extension: map[string]any{"mimeTypes": []any{view.MIMEType}}}}
	if !rendersApps(withCaps(wire)) {
		t.Error("capabilities in the request's _meta, as decoded from the wire: not read")
	}
	other := map[string]any{"extensions": map[string]any{"io.example/other": map[string]any{}}}
	if rendersApps(withCaps(other)) {
		t.Error("another extension taken for MCP Apps")
	}
	if rendersApps(&mcp.ListToolsRequest{Params: &mcp.ListToolsParams{}}) {
		t.Error("a request with no session and no capabilities taken for an app client")
	}
}
