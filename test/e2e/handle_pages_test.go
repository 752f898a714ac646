package e2e

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// escapingText is about 1 MB of lines full of what JSON escapes (quotes,
// backslashes, tabs, control bytes, U+2028) and of multi-byte UTF-8, so
// that its JSON form is far longer than its bytes.
func escapingText() string {
	var b strings.Builder
	for i := 0; b.Len() < 1<<20; i++ {
		fmt.Fprintf(&b, "%06d \"quoted\\path\" \t\x01\x1f\x7f é中🙂 \u2028 <&> %s\n", i, strings.Repeat(`"\`, i%40))
	}
	return b.String()
}

// handle_read answers every page of a ~1 MB handle within the output cap,
// however much its content grows in JSON, with the defaults and with the
// schema's maximum limit, by lines and by bytes; the pages put together are
// the original.
func TestHandleReadPagesFitTheCap(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	e := newEnv(t, "")
	want := escapingText()
	if err := os.WriteFile(filepath.Join(e.root, "big.txt"), []byte(want), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	env, _ := call(t, ctx, cs, tools, "fs_read", map[string]any{"path": "big.txt"})
	var read struct {
		Handle string `json:"handle"`
	}
	if err := json.Unmarshal(env.Data, &read); err != nil || !env.Success || read.Handle == "" {
		t.Fatalf("fs_read of a 1 MB file: want a window and a handle, got %+v (%v)", env, err)
	}
	for _, tc := range []struct {
		name string
		args map[string]any
	}{
		{"lines, defaults", map[string]any{}},
		{"bytes, defaults", map[string]any{"unit": "bytes"}},
		{"lines, maximum limit", map[string]any{"unit": "lines", "limit": 2000}},
		{"bytes, maximum limit", map[string]any{"unit": "bytes", "limit": 1048576}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, pages := pageToEOF(t, cs, tools, read.Handle, tc.args, 64<<10)
			if got != want {
				t.Errorf("%d pages put together differ from the file (%d bytes, want %d)", pages, len(got), len(want))
			}
			// 1 MB of content that doubles in JSON cannot come in fewer pages.
			if pages < 20 {
				t.Errorf("%d pages for 1 MB under a 64 KiB cap", pages)
			}
		})
	}
	// Over the 1 MiB one resource read returns, the handle is refused as a
	// resource with the tool to use, not cut short without a word.
	// A context of its own, as each paging has: on a loaded machine the
	// four pagings can take most of the test's first minute.
	_, err := cs.ReadResource(testCtx(t), &mcp.ReadResourceParams{URI: "hostmcp://handle/" + read.Handle})
	if err == nil || !strings.Contains(err.Error(), "handle_read") {
		t.Errorf("resources/read of a %d-byte handle: %v, want an error naming handle_read", len(want), err)
	}
}

// pageToEOF reads a handle with handle_read from offset 0, passing next_offset
// on and nothing else beyond args, until eof. Each answer must be a success
// whose whole text is at most capBytes.
func pageToEOF(t *testing.T, cs *mcp.ClientSession, tools map[string]*mcp.Tool, handle string, args map[string]any, capBytes int) (string, int) {
	t.Helper()
	ctx := testCtx(t)
	var b strings.Builder
	offset := 0
	for pages := 1; pages < 10000; pages++ {
		a := map[string]any{"handle": handle}
		for k, v := range args {
			a[k] = v
		}
		if offset > 0 {
			a["offset"] = offset
		}
		env, res := call(t, ctx, cs, tools, "handle_read", a)
		if !env.Success || env.Truncated {
			t.Fatalf("handle_read %v: want a page, got success=%v truncated=%v error=%+v warnings=%q", a, env.Success, env.Truncated, env.Error, env.Warnings)
		}
		if n := len(res.Content[0].(*mcp.TextContent).Text); n > capBytes {
			t.Fatalf("handle_read %v: the answer is %d bytes, over the %d-byte cap", a, n, capBytes)
		}
		var page struct {
			Content    string `json:"content"`
			Returned   int    `json:"returned"`
			NextOffset *int   `json:"next_offset"`
			EOF        *bool  `json:"eof"`
		}
		if err := json.Unmarshal(env.Data, &page); err != nil {
			t.Fatal(err)
		}
		if page.EOF == nil || page.NextOffset == nil {
			t.Fatalf("handle_read %v: the page lacks eof or next_offset: %.300s", a, env.Data)
		}
		b.WriteString(page.Content)
		if *page.EOF {
			return b.String(), pages
		}
		if *page.NextOffset <= offset || page.Returned == 0 {
			t.Fatalf("handle_read %v does not advance: next_offset %d, returned %d", a, *page.NextOffset, page.Returned)
		}
		offset = *page.NextOffset
	}
	t.Fatal("handle_read never reached eof")
	return "", 0
}
