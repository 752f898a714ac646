package core

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// BenchmarkHandleReadPage is one default page (200 lines) from the middle
// of a 1 MB handle of plain log lines, through the runner.
func BenchmarkHandleReadPage(b *testing.B) {
	ctx := context.Background()
	st, err := store.Open(ctx, &store.Options{Path: filepath.Join(b.TempDir(), "s.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var text strings.Builder
	for i := 0; text.Len() < 1<<20; i++ {
		fmt.Fprintf(&text, "2026-11-26T05:00:00Z host app[%d]: request %d served in 12 ms\n", i%97, i)
	}
	h, err := st.PutHandle(ctx, "test", map[string]any{"path": "/var/log/app.log"}, []byte(text.String()))
	if err != nil {
		b.Fatal(err)
	}
	d := New(st).handleRead()
	inv := tool.Invocation{Def: d, Args: json.RawMessage(`{"handle":"` + h.ID + `","offset":5000}`)}
	r := &tool.Runner{}
	for b.Loop() {
		if res := r.Run(ctx, inv); res.Err != nil || res.Envelope.Truncated {
			b.Fatalf("%.300s", res.JSON)
		}
	}
}
