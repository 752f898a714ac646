package search

import (
	"context"
	"encoding/json"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// BenchmarkContentManyStored is BenchmarkCPUVsRg's content-many (2,500
// hits over GOROOT/src, 200 shown, all kept as a handle) with the real
// store behind the handles (SQLite in a temporary state directory), the
// handles written before the answer (store.PutHandle, "inline") or after
// it (store.PutHandleAsync, "async", as the server does), the two in turns
// in the same process. answer-ms is the call's wall time to its answer;
// cpu-ms is this process's CPU per call, every goroutine, measured once
// the call's handles are written (a checkpoint run meanwhile included).
// Between calls the bench waits for the pending writes, so that a
// background write never lands in the next call's time. saved-ms is the
// median of the pairs' differences in answer-ms, inline less async.
func BenchmarkContentManyStored(b *testing.B) {
	src := goSrc(b)
	s := setOver(b, src)
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(b.TempDir(), "state", "hostmcp.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	async := false
	runner := &tool.Runner{Handles: func(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
		put := st.PutHandle
		if async {
			put = st.PutHandleAsync
		}
		h, err := put(ctx, typ, meta, payload)
		return h.ID, err
	}}
	raw, _ := json.Marshal(map[string]any{"pattern": `errors\.New\(`, "max_results": 200, "engine": "rg"})
	def := s.content()
	type sample struct{ answer, cpu time.Duration }
	var inline, deferred []sample
	for i := 0; b.Loop(); i++ {
		async = i%2 == 1
		s0, _ := cpuTimes()
		t0 := time.Now()
		res := runner.Run(context.Background(), tool.Invocation{Def: def, Args: raw})
		took := time.Since(t0)
		if res.Err != nil {
			b.Fatalf("%s", res.JSON)
		}
		if _, err := st.Handles(context.Background(), 1); err != nil { // waits for pending writes
			b.Fatal(err)
		}
		s1, _ := cpuTimes()
		if async {
			deferred = append(deferred, sample{took, s1 - s0})
		} else {
			inline = append(inline, sample{took, s1 - s0})
		}
	}
	// The pairs' differences, each inline call beside the async one after
	// it: less at the mercy of the neighbours than two medians apart.
	var saved []float64
	for i := range min(len(inline), len(deferred)) {
		saved = append(saved, float64((inline[i].answer-deferred[i].answer).Microseconds())/1000)
	}
	if len(saved) > 0 {
		sort.Float64s(saved)
		b.ReportMetric(saved[len(saved)/2], "saved-ms")
	}
	for _, c := range []struct {
		name string
		s    []sample
	}{{"inline", inline}, {"async", deferred}} {
		if len(c.s) == 0 {
			continue
		}
		answers, cpus := make([]float64, len(c.s)), make([]float64, len(c.s))
		for i, x := range c.s {
			answers[i], cpus[i] = float64(x.answer.Microseconds())/1000, float64(x.cpu.Microseconds())/1000
		}
		sort.Float64s(answers)
		sort.Float64s(cpus)
		b.ReportMetric(answers[len(answers)/2], c.name+"-answer-ms")
		b.ReportMetric(cpus[len(cpus)/2], c.name+"-cpu-ms")
	}
}
