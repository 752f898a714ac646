package store

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// BenchmarkReadHandleDeepWindow reads 100 lines a million lines into a
// 2-million-line payload (56 MB), beside reads at the start and the end for
// comparison: the line index and the chunked payload make them cost the
// same.
func BenchmarkReadHandleDeepWindow(b *testing.B) {
	var p bytes.Buffer
	for i := range 2_000_000 {
		fmt.Fprintf(&p, "%07d a line of benchmark text\n", i)
	}
	s := openTest(b, nil)
	ctx := context.Background()
	h, err := s.PutHandle(ctx, "bench", nil, p.Bytes())
	if err != nil {
		b.Fatal(err)
	}
	for _, first := range []int64{0, 1_000_000, 1_999_900} {
		b.Run(fmt.Sprintf("line=%d", first), func(b *testing.B) {
			want := fmt.Sprintf("%07d a line of benchmark text\n", first)
			b.ReportAllocs()
			for b.Loop() {
				sl, err := s.ReadHandle(ctx, h.ID, first, 100, Lines)
				if err != nil {
					b.Fatal(err)
				}
				if sl.Returned != 100 || sl.Content[:len(want)] != want {
					b.Fatalf("read %d lines starting %q", sl.Returned, sl.Content[:len(want)])
				}
			}
		})
	}
}

// BenchmarkRecordCalls is the CPU a call record costs: written alone, one
// transaction each (what every call paid on its own path before the
// background writer), and in batches as the writer writes them.
func BenchmarkRecordCalls(b *testing.B) {
	rec := CallRecord{Tool: "fs_read", Session: "bench/local-1", ArgsSummary: `path="src/main.go"`, Outcome: OutcomeOK, BytesOut: 8000}
	ctx := context.Background()
	for _, n := range []int{1, 16, 256} {
		b.Run(fmt.Sprintf("batch=%d", n), func(b *testing.B) {
			s := openTest(b, nil)
			batch := make([]CallRecord, n)
			for i := range batch {
				batch[i] = rec
			}
			for b.Loop() {
				if err := s.insertCalls(ctx, batch); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N*n), "µs/record")
		})
	}
}

// BenchmarkPutHandleLaterAnswer is what keeping a search's hits as a
// handle written after the answer (PutHandleLater) costs the call before
// it can answer: sizing aside (the caller's), the handle's description and
// the check that no committed handle has the ID it chose. The payload is
// about 1 MB, as content-many's 2,500 hits. Between calls the bench waits
// gap (rg's run in a real call, during which a checkpoint may run), after
// the previous write ended ("after-write") or while it still runs
// ("beside-write", calls back to back). answer-µs is the median time
// PutHandleLater took; ns/op counts the write and the gap too.
func BenchmarkPutHandleLaterAnswer(b *testing.B) {
	line := bytes.Repeat([]byte("x"), 399)
	line = append(line, '\n')
	payload := bytes.Repeat(line, 2500)
	encode := func() []byte { return payload }
	ctx := context.Background()
	const gap = 20 * time.Millisecond
	for _, beside := range []bool{false, true} {
		name := "after-write"
		if beside {
			name = "beside-write"
		}
		b.Run(name, func(b *testing.B) {
			s := openTest(b, nil)
			var answers []time.Duration
			for b.Loop() {
				time.Sleep(gap)
				reqCtx, cancel := context.WithCancel(ctx) // a call's context, as the server's
				t0 := time.Now()
				id, err := s.PutHandleLater(reqCtx, "search_hits", map[string]any{"kind": "content"}, int64(len(payload)), encode)
				answers = append(answers, time.Since(t0))
				cancel()
				if err != nil {
					b.Fatal(err)
				}
				if !beside {
					if _, err := s.Handle(ctx, id); err != nil { // waits for the write
						b.Fatal(err)
					}
				}
			}
			slices.Sort(answers)
			b.ReportMetric(float64(answers[len(answers)/2].Nanoseconds())/1000, "answer-µs")
		})
	}
}
