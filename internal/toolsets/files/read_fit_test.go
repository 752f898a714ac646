package files

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// fs_read's window fits the output cap as JSON: lines full of what JSON
// escapes come back fewer, with next_offset_lines where the answer
// stopped, never as a preview whose content and next offset disagree.
func TestReadFitsTheCap(t *testing.T) {
	root := t.TempDir()
	var text strings.Builder
	for i := range 400 {
		fmt.Fprintf(&text, "%03d %s\n", i, strings.Repeat(`"\`+"\x01", 120))
	}
	text.WriteString(strings.Repeat("\x02", 16<<10) + "\n") // one line that alone passes the cap as JSON
	text.WriteString("last\n")
	if err := os.WriteFile(filepath.Join(root, "esc.txt"), []byte(text.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	roots, err := fsroot.Open([]fsroot.Spec{{Path: root}})
	if err != nil {
		t.Fatal(err)
	}
	defer roots.Close()
	d := New(&Deps{Roots: roots}).read()
	const capBytes = 16 << 10
	r := &tool.Runner{
		Handles: func(context.Context, string, map[string]any, []byte) (string, error) {
			return "H_filecontent_20261126T000000Z_0123abcd", nil
		},
		Limits: func(tool.Spec) tool.Limits { return tool.Limits{Timeout: 10e9, OutputCap: capBytes} },
	}
	var got strings.Builder
	offset, cut := 0, 0
	for calls := 0; ; calls++ {
		if calls > 200 {
			t.Fatal("no end after 200 calls")
		}
		args, _ := json.Marshal(map[string]any{"path": "esc.txt", "offset_lines": offset})
		res := r.Run(context.Background(), tool.Invocation{Def: d, Args: args})
		if res.Err != nil || res.Envelope.Truncated || len(res.JSON) > capBytes {
			t.Fatalf("offset %d: error %v, truncated %v, %d bytes: %q", offset, res.Err, res.Envelope.Truncated, len(res.JSON), res.Envelope.Warnings)
		}
		var out readOut
		if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
			t.Fatal(err)
		}
		if out.Meta.ReturnedLines == 0 || out.Meta.StartLine != offset {
			t.Fatalf("offset %d: %d lines from %d", offset, out.Meta.ReturnedLines, out.Meta.StartLine)
		}
		for _, w := range res.Envelope.Warnings {
			if strings.Contains(w, "were cut") {
				cut++
			}
		}
		got.WriteString(out.Content)
		if out.Meta.NextOffsetLines == 0 {
			break
		}
		if offset == 0 && out.Meta.NextOffsetLines >= 200 {
			t.Errorf("the first answer holds %d lines of ~360 bytes, 6 of them escaped to 6 bytes each, under a 16 KiB cap", out.Meta.NextOffsetLines)
		}
		offset = out.Meta.NextOffsetLines
	}
	// Every line but the long one comes back whole; that one is cut, and said so.
	want := text.String()
	long := strings.Repeat("\x02", 16<<10) + "\n"
	i := strings.Index(want, long)
	if g := got.String(); !strings.HasPrefix(g, want[:i]) || !strings.HasSuffix(g, "last\n") || cut != 1 {
		t.Errorf("read back %d bytes (want %d but for the long line), %d cut warnings", len(g), len(want), cut)
	}
}
