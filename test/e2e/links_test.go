package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// links returns the resource_link items of a result, by URI.
func links(res *mcp.CallToolResult) map[string]*mcp.ResourceLink {
	m := map[string]*mcp.ResourceLink{}
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok {
			m[l.URI] = l
		}
	}
	return m
}

// checkLink asserts that a result links to a handle with a name, a MIME
// type and its size, and that resources/read of the link gives that MIME
// type and that many bytes.
func checkLink(t *testing.T, cs *mcp.ClientSession, res *mcp.CallToolResult, handle string) {
	t.Helper()
	uri := "hostmcp://handle/" + handle
	l, ok := links(res)[uri]
	if !ok {
		t.Fatalf("no resource_link to %s among %d content items", uri, len(res.Content))
	}
	if l.Name == "" || l.MIMEType == "" || l.Size == nil || *l.Size <= 0 {
		t.Errorf("link %s: name %q, mimeType %q, size %v", uri, l.Name, l.MIMEType, l.Size)
	}
	rr, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	if got := rr.Contents[0]; got.MIMEType != l.MIMEType || l.Size == nil || int64(len(got.Text)) != *l.Size {
		t.Errorf("resources/read %s: mimeType %q and %d bytes, the link says %q and %v", uri, got.MIMEType, len(got.Text), l.MIMEType, l.Size)
	}
}

// Results that hold a handle link to it; resources/list lists the handles,
// newest first, and no more than its bound; the handle template's MIME
// type is what resources/read answers.
func TestResultsLinkTheirHandles(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "[tools.perf_info]\noutput_cap_bytes = 1024\n")
	for i := range 30 {
		if err := os.WriteFile(filepath.Join(e.root, fmt.Sprintf("f%02d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)

	// The runner's own handle, for a result over the cap.
	env, res := call(t, ctx, cs, tools, "perf_info", map[string]any{})
	if !env.Truncated {
		t.Fatalf("perf_info under a 1 KiB cap: want truncated, got %+v", env)
	}
	checkLink(t, cs, res, env.Handle)
	resultHandle := env.Handle

	// A tool's own handle: fs_list keeps every entry beyond max_entries.
	var newest string
	for range 3 {
		env, res = call(t, ctx, cs, tools, "fs_list", map[string]any{"path": ".", "max_entries": 5})
		var out struct {
			Handle string `json:"handle"`
		}
		if err := json.Unmarshal(env.Data, &out); err != nil || out.Handle == "" {
			t.Fatalf("fs_list of 30 entries with max_entries 5: no handle (%v)", err)
		}
		checkLink(t, cs, res, out.Handle)
		newest = out.Handle
		time.Sleep(2 * time.Millisecond) // distinct creation times, for the order
	}

	// A result without handle or artifact links nothing.
	_, res = call(t, ctx, cs, tools, "fs_list", map[string]any{"path": ".", "max_entries": 100})
	if n := len(links(res)); n != 0 {
		t.Errorf("fs_list without a handle carries %d links", n)
	}

	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	if len(list.Resources) != 4 || list.Resources[0].URI != "hostmcp://handle/"+newest || list.Resources[3].URI != "hostmcp://handle/"+resultHandle {
		var uris []string
		for _, r := range list.Resources {
			uris = append(uris, r.URI)
		}
		t.Fatalf("resources/list = %v, want the 4 handles, %s first and %s last", uris, newest, resultHandle)
	}
	for _, r := range list.Resources {
		if r.Name == "" || r.MIMEType != "text/plain" || r.Size <= 0 {
			t.Errorf("listed resource %+v lacks a name, the handle MIME type or a size", r)
		}
	}
	templates, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tpl := range templates.ResourceTemplates {
		if tpl.URITemplate == "hostmcp://handle/{id}" && tpl.MIMEType != list.Resources[0].MIMEType {
			t.Errorf("the handle template says %q, resources/read answers %q", tpl.MIMEType, list.Resources[0].MIMEType)
		}
	}
}

// resources/list is bounded: only the newest 100 handles and artifacts.
func TestResourceListIsBounded(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, "")
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(e.root, fmt.Sprintf("f%d", i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	var last string
	for range 105 {
		env, _ := call(t, ctx, cs, tools, "fs_list", map[string]any{"path": ".", "max_entries": 1})
		var out struct {
			Handle string `json:"handle"`
		}
		_ = json.Unmarshal(env.Data, &out)
		last = out.Handle
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	if len(list.Resources) != 100 || list.Resources[0].URI != "hostmcp://handle/"+last {
		t.Errorf("resources/list gave %d resources; want 100, the newest (%s) first", len(list.Resources), last)
	}
}

// A client of a protocol version before 2025-06-18, which has no
// resource_link content, gets the text alone.
func TestNoLinksBeforeTheirProtocolVersion(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "[tools.perf_info]\noutput_cap_bytes = 1024\n")
	for _, version := range []string{"2024-11-05", "2025-03-26", "2025-06-18"} {
		t.Run(version, func(t *testing.T) {
			cmd := exec.Command(binary, e.args("serve")...)
			cmd.Stderr = &testLog{t: t}
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: version})
			if err != nil {
				t.Fatalf("connecting at %s: %v", version, err)
			}
			defer cs.Close()
			if got := cs.InitializeResult().ProtocolVersion; got != version {
				t.Fatalf("negotiated %s, want %s", got, version)
			}
			res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "perf_info", Arguments: map[string]any{}})
			if err != nil {
				t.Fatal(err)
			}
			text, ok := res.Content[0].(*mcp.TextContent)
			if !ok || !strings.Contains(text.Text, `"truncated":true`) {
				t.Fatalf("want the envelope text of a truncated result first, got %+v", res.Content[0])
			}
			want := 1
			if version >= "2025-06-18" {
				want = 2
			}
			if len(res.Content) != want {
				t.Errorf("%s: %d content items, want %d", version, len(res.Content), want)
			}
			// resources/list lists the handle at every revision.
			var env envelope
			_ = json.Unmarshal([]byte(text.Text), &env)
			list, err := cs.ListResources(ctx, nil)
			if err != nil || len(list.Resources) == 0 || list.Resources[0].URI != "hostmcp://handle/"+env.Handle {
				t.Errorf("%s: resources/list does not list %s first: %v %+v", version, env.Handle, err, list)
			}
		})
	}
}

// A profile links each artifact it made, as the artifact's own MIME type;
// perf_get_artifact links the one it read; resources/list lists them.
func TestProfileLinksItsArtifacts(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	ctx := testCtx(t)
	e := newEnv(t, "")
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	env, res := call(t, ctx, cs, tools, "perf_cpu_profile", map[string]any{"duration_seconds": 1})
	var out struct {
		Mode      string `json:"mode"`
		Artifacts []struct {
			ID   string `json:"id"`
			MIME string `json:"mime"`
			Size int64  `json:"size_bytes"`
			URI  string `json:"uri"`
		} `json:"artifacts"`
	}
	if err := json.Unmarshal(env.Data, &out); err != nil || !env.Success || out.Mode != "perf" || len(out.Artifacts) != 3 {
		t.Fatalf("perf_cpu_profile: mode %q, %d artifacts, error %+v (%v)", out.Mode, len(out.Artifacts), env.Error, err)
	}
	got := links(res)
	if len(got) != 3 {
		t.Errorf("%d resource links, want one per artifact", len(got))
	}
	for _, a := range out.Artifacts {
		l, ok := got[a.URI]
		if !ok || l.Name != a.ID || l.MIMEType != a.MIME || l.Size == nil || *l.Size != a.Size {
			t.Errorf("artifact %+v: link %+v", a, l)
			continue
		}
		rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: a.URI})
		if err != nil {
			t.Fatalf("resources/read %s: %v", a.URI, err)
		}
		if c := rr.Contents[0]; c.MIMEType != l.MIMEType || int64(len(c.Text)+len(c.Blob)) != *l.Size {
			t.Errorf("resources/read %s: %q and %d bytes, the link says %q and %d", a.URI, c.MIMEType, len(c.Text)+len(c.Blob), l.MIMEType, *l.Size)
		}
	}
	_, res = call(t, ctx, cs, tools, "perf_get_artifact", map[string]any{"id": out.Artifacts[0].ID, "limit": 16})
	if _, ok := links(res)[out.Artifacts[0].URI]; !ok || len(res.Content) != 2 {
		t.Errorf("perf_get_artifact: %d content items, want the text and a link to %s", len(res.Content), out.Artifacts[0].URI)
	}
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatalf("resources/list: %v", err)
	}
	listed := map[string]bool{}
	for _, r := range list.Resources {
		listed[r.URI] = true
	}
	for _, a := range out.Artifacts {
		if !listed[a.URI] {
			t.Errorf("resources/list lacks %s", a.URI)
		}
	}
}
