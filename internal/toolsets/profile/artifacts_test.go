package profile

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// perf_get_artifact's pages fit the output cap with the schema's maximum
// limit, as text however it escapes and as base64, and put together are
// the artifact.
func TestGetArtifactPagesFitTheCap(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, &store.Options{Path: filepath.Join(t.TempDir(), "hostmcp.db")})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var svg strings.Builder
	for i := 0; svg.Len() < 300<<10; i++ {
		fmt.Fprintf(&svg, "<g class=\"func_g\"><title>main.f%d (1 samples, 0.01%%) é\\</title></g>\n", i)
	}
	bin := make([]byte, 200<<10)
	for i := range bin {
		bin[i] = byte(rand.IntN(256))
	}
	s := New(&Deps{Store: st})
	const capBytes = 64 << 10
	for _, a := range []store.ArtifactInput{
		{RunID: "R_1", Tool: "perf_cpu_profile", Type: "flamegraph", MIME: "image/svg+xml", Ext: "svg", Data: []byte(svg.String())},
		{RunID: "R_1", Tool: "perf_cpu_profile", Type: "pprof", MIME: "application/vnd.google.protobuf+gzip", Ext: "pb.gz", Data: bin},
	} {
		art, err := st.PutArtifact(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		var got []byte
		var offset int64
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatalf("%s: no end after 100 pages", a.Type)
			}
			args, _ := json.Marshal(map[string]any{"id": art.ID, "offset": offset, "limit": 1 << 20})
			r := &tool.Runner{Limits: func(tool.Spec) tool.Limits { return tool.Limits{Timeout: 10e9, OutputCap: capBytes} }}
			res := r.Run(ctx, tool.Invocation{Def: s.getArtifact(), Args: args})
			if res.Err != nil || res.Envelope.Truncated || len(res.JSON) > capBytes {
				t.Fatalf("%s at %d: error %v, truncated %v, %d bytes", a.Type, offset, res.Err, res.Envelope.Truncated, len(res.JSON))
			}
			var out getOut
			if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
				t.Fatal(err)
			}
			chunk := []byte(out.Content)
			if out.Encoding == "base64" {
				if chunk, err = base64.StdEncoding.DecodeString(out.Content); err != nil {
					t.Fatal(err)
				}
			}
			if int64(len(chunk)) != out.Length || out.Length == 0 {
				t.Fatalf("%s at %d: length %d, content %d bytes", a.Type, offset, out.Length, len(chunk))
			}
			got = append(got, chunk...)
			if out.NextOffset == nil {
				break
			}
			offset = *out.NextOffset
		}
		if !bytes.Equal(got, a.Data) {
			t.Errorf("%s: the pages put together differ from the artifact (%d bytes, want %d)", a.Type, len(got), len(a.Data))
		}
	}
}
