package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestStdioServesToolsPromptsAndResources(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	cs := newEnv(t, "").connectStdio(t, ctx)
	if cs.InitializeResult().ServerInfo.Name != "hostmcp" {
		t.Errorf("server name = %q", cs.InitializeResult().ServerInfo.Name)
	}
	tools := listTools(t, ctx, cs)
	for _, want := range []string{"perf_info", "sys_snapshot", "handle_read"} {
		if tools[want] == nil {
			t.Fatalf("tools/list lacks %s", want)
		}
	}
	for name, tl := range tools {
		checkAnnotations(t, name, tl)
		if tl.OutputSchema == nil {
			t.Errorf("%s has no outputSchema", name)
		}
	}

	for _, name := range []string{"perf_info", "sys_snapshot"} {
		env, _ := call(t, ctx, cs, tools, name, map[string]any{})
		if !env.Success || len(env.Data) == 0 {
			t.Fatalf("%s failed: %+v", name, env.Error)
		}
	}

	t.Run("bad arguments are a tool error with a code", func(t *testing.T) {
		env, res := call(t, ctx, cs, tools, "sys_snapshot", map[string]any{"bogus": 1})
		if !res.IsError || env.Error == nil || env.Error.Code != "INVALID_PARAMS" || env.Error.Suggestion == "" {
			t.Fatalf("want INVALID_PARAMS with a suggestion, got %+v", env.Error)
		}
	})
	t.Run("unknown tool is a protocol error", func(t *testing.T) {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "no_such_tool"})
		if err == nil {
			t.Fatal("want a JSON-RPC error")
		}
	})
	t.Run("expired or unknown handle", func(t *testing.T) {
		env, _ := call(t, ctx, cs, tools, "handle_read", map[string]any{"handle": "H_result_20200101T000000Z_00000000"})
		if env.Error == nil || env.Error.Code != "HANDLE_NOT_FOUND" {
			t.Fatalf("want HANDLE_NOT_FOUND, got %+v", env.Error)
		}
	})

	prompts, err := cs.ListPrompts(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(prompts.Prompts) < 7 {
		t.Errorf("want the seven golden workflows, got %d prompts", len(prompts.Prompts))
	}
	p, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "quick_triage", Arguments: map[string]string{"focus": "nginx"}})
	if err != nil {
		t.Fatal(err)
	}
	text := p.Messages[0].Content.(*mcp.TextContent).Text
	if !strings.Contains(text, "perf_use_check") || !strings.Contains(text, "nginx") {
		t.Errorf("quick_triage prompt lacks its steps or focus: %s", text)
	}

	tmpls, err := cs.ListResourceTemplates(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, rt := range tmpls.ResourceTemplates {
		found = found || rt.URITemplate == "hostmcp://handle/{id}"
	}
	if !found {
		t.Errorf("resource templates lack hostmcp://handle/{id}: %+v", tmpls.ResourceTemplates)
	}
}

func checkAnnotations(t *testing.T, name string, tl *mcp.Tool) {
	t.Helper()
	a := tl.Annotations
	if a == nil || a.DestructiveHint == nil || a.OpenWorldHint == nil || a.Title == "" {
		t.Errorf("%s lacks annotations: %+v", name, a)
		return
	}
	raw, _ := json.Marshal(a)
	for _, k := range []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
		if !strings.Contains(string(raw), `"`+k+`"`) {
			t.Errorf("%s: annotation %s not sent", name, k)
		}
	}
}
