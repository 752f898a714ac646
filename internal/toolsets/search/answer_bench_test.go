package search

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// BenchmarkContentManyAnswer is BenchmarkCPUVsRg's content-many after rg:
// the 2,500 hits of errors\.New\( over GOROOT/src, found once, answered
// again and again from the hits (req.answer: sorting, sizing, the handle)
// through tool.Runner, its handles in a real store as the server keeps
// them (PutHandleAsync, and PutHandleLater for a listing's lines), to the
// envelope's JSON. answer-us is the median wall time of a call, cpu-us
// this process's median CPU for it; the store's pending writes are waited
// for between calls, outside both. The search itself, rg and the
// checking of its lines, is left out: it does not change with how the
// answer is sized, and its time would drown the difference.
func BenchmarkContentManyAnswer(b *testing.B) {
	src := goSrc(b)
	const pattern = `errors\.New\(`
	hits := foundHits(b, setOver(b, src), pattern)
	roots, err := fsroot.Open([]fsroot.Spec{{Path: src}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { roots.Close() })
	req, err := (&Set{}).prepare(roots, contentIn{Pattern: pattern, MaxResults: 200})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(req.close)
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(b.TempDir(), "state", "hostmcp.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	runner := &tool.Runner{
		Handles: func(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
			h, err := st.PutHandleAsync(ctx, typ, meta, payload)
			return h.ID, err
		},
		HandlesLater: st.PutHandleLater,
	}
	def := tool.New(tool.Spec{Name: "search_content", Kind: tool.ReadOnly, Title: "Answer hits", Description: "Answer the hits found."},
		func(ctx context.Context, call *tool.Call, _ struct{}) (contentOut, error) {
			return req.answer(ctx, call, pattern, slices.Clone(hits), true, "rg"), nil
		})
	inv := tool.Invocation{Def: def, Args: json.RawMessage(`{}`)}
	var walls, cpus []float64
	var size int
	for b.Loop() {
		c0, _ := cpuTimes()
		t0 := time.Now()
		res := runner.Run(context.Background(), inv)
		wall := time.Since(t0)
		c1, _ := cpuTimes()
		if res.Err != nil {
			b.Fatalf("%.300s", res.JSON)
		}
		size = len(res.JSON)
		if _, err := st.Handles(context.Background(), 1); err != nil { // waits for pending writes
			b.Fatal(err)
		}
		walls, cpus = append(walls, float64(wall.Microseconds())), append(cpus, float64((c1-c0).Microseconds()))
	}
	b.ReportMetric(median(walls), "answer-us")
	b.ReportMetric(median(cpus), "cpu-us")
	b.ReportMetric(float64(size), "answer-bytes")
}

// foundHits is every hit of pattern over the set's root, as a search of
// it keeps them in its handle.
func foundHits(b *testing.B, s *Set, pattern string) []Hit {
	b.Helper()
	var lines []byte
	runner := &tool.Runner{Handles: func(_ context.Context, typ string, _ map[string]any, payload []byte) (string, error) {
		if typ == "search_hits" {
			lines = payload
		}
		return "H_" + typ, nil
	}}
	raw, _ := json.Marshal(map[string]any{"pattern": pattern, "max_results": 1, "engine": "rg"})
	if res := runner.Run(context.Background(), tool.Invocation{Def: s.content(), Args: raw}); res.Err != nil {
		b.Fatalf("%s", res.JSON)
	}
	var hits []Hit
	dec := json.NewDecoder(bytes.NewReader(lines))
	for dec.More() {
		var h Hit
		if err := dec.Decode(&h); err != nil {
			b.Fatal(err)
		}
		hits = append(hits, h)
	}
	if len(hits) < 1000 {
		b.Fatalf("%d hits found; the benchmark needs the thousands of GOROOT/src", len(hits))
	}
	return hits
}

// median is the middle of xs (which it sorts).
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sort.Float64s(xs)
	return xs[len(xs)/2]
}
