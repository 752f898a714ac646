package tool

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
)

// benchHit is shaped as search_content's hit: a path, numbers, and a
// snippet of context lines holding quotes, tabs and markup, about 400
// bytes as a JSON line.
type benchHit struct {
	Path        string `json:"path"`
	Line        int    `json:"line"`
	Column      int    `json:"column"`
	Snippet     string `json:"snippet"`
	SnippetLine int    `json:"snippet_line"`
}

// benchName is shaped as search_files' hit: a short relative path.
type benchName struct {
	Path string `json:"path"`
}

func benchHits() []benchHit {
	hits := make([]benchHit, 2500)
	for i := range hits {
		hits[i] = benchHit{
			Path:   fmt.Sprintf("src/net/http/internal/file_%04d.go", i),
			Line:   100 + i,
			Column: 9,
			Snippet: strings.Join([]string{
				"\t// a comment that says why the check below is there, as Go's own sources do",
				"\tif err != nil && len(b) > 0 {",
				fmt.Sprintf("\t\treturn fmt.Errorf(\"reading %%q: <%d> %%w\", name, err)", i),
				"\t}",
				"\treturn nil, errors.New(\"net/http: a line of context after the match & more\")",
			}, "\n"),
			SnippetLine: 98 + i,
		}
	}
	return hits
}

func benchNames() []benchName {
	names := make([]benchName, 1753)
	for i := range names {
		names[i] = benchName{Path: fmt.Sprintf("cmd/compile/internal/ssa/rewrite_%04d_test.go", i)}
	}
	return names
}

// BenchmarkPutLines is what keeping a search's full result as a handle
// costs the call, with the real SQLite store in a temporary state
// directory: content-many's 2,500 hits (about 1 MB of JSON lines) and
// search_files' 1,753 names. "encode" is the JSON lines alone, "store" the
// store's PutHandle of them alone, "both" the whole of PutLines.
func BenchmarkPutLines(b *testing.B) {
	b.Run("hits=2500", func(b *testing.B) { benchPutLines(b, "search_hits", benchHits()) })
	b.Run("names=1753", func(b *testing.B) { benchPutLines(b, "search_files", benchNames()) })
}

func benchPutLines[T any](b *testing.B, typ string, items []T) {
	ctx := context.Background()
	payload, err := JSONLines(items)
	if err != nil {
		b.Fatal(err)
	}
	meta := func() map[string]any {
		return map[string]any{"kind": typ, "path": "/srv/src", "root": "/srv", "pattern": `func \w+\(`}
	}
	b.Run("encode", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(payload)))
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := JSONLines(items); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("store", func(b *testing.B) {
		s := openBenchStore(b)
		b.ReportAllocs()
		b.SetBytes(int64(len(payload)))
		defer reportCPU(b)()
		for b.Loop() {
			if _, err := s.PutHandle(ctx, typ, meta(), payload); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("both", func(b *testing.B) {
		s := openBenchStore(b)
		sink := func(ctx context.Context, typ string, meta map[string]any, p []byte) (string, error) {
			h, err := s.PutHandle(ctx, typ, meta, p)
			return h.ID, err
		}
		b.ReportAllocs()
		b.SetBytes(int64(len(payload)))
		defer reportCPU(b)()
		for b.Loop() {
			call := &Call{handles: sink}
			if PutLines(ctx, call, typ, meta(), items, 200) == "" {
				b.Fatal(call.Warnings())
			}
		}
	})
	// As the server keeps a result: the lines sized at once, written with
	// the handle after PutLines returns (store.PutHandleLater; other puts
	// store.PutHandleAsync). answer-ms is the time PutLines took,
	// what the call waits; ns/op and cpu-ms/op also count the write, which
	// each iteration waits for (Handle waits for it) before the next.
	// "-gap" waits 20 ms idle before each call, as a search's PutLines
	// follows rg's run: the process's caches are then cold, and the handle
	// ID's check costs ten times its figure in a loop.
	for _, gap := range []time.Duration{0, 20 * time.Millisecond} {
		name := "both-async"
		if gap > 0 {
			name += "-gap"
		}
		b.Run(name, func(b *testing.B) {
			s := openBenchStore(b)
			sink := func(ctx context.Context, typ string, meta map[string]any, p []byte) (string, error) {
				h, err := s.PutHandleAsync(ctx, typ, meta, p)
				return h.ID, err
			}
			b.ReportAllocs()
			b.SetBytes(int64(len(payload)))
			defer reportCPU(b)()
			var answers []time.Duration
			for b.Loop() {
				time.Sleep(gap)
				call := &Call{handles: sink, later: s.PutHandleLater}
				t0 := time.Now()
				id := PutLines(ctx, call, typ, meta(), items, 200)
				answers = append(answers, time.Since(t0))
				if id == "" {
					b.Fatal(call.Warnings())
				}
				if _, err := s.Handle(ctx, id); err != nil {
					b.Fatal(err)
				}
			}
			slices.Sort(answers)
			b.ReportMetric(float64(answers[len(answers)/2].Microseconds())/1000, "answer-ms")
		})
	}
}

// openBenchStore opens a real store in a temporary state directory, with
// the defaults the server runs with.
func openBenchStore(b *testing.B) *store.Store {
	s, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(b.TempDir(), "state", "hostmcp.db")})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

// reportCPU reports the process's CPU time (user and system) per
// operation from now until the returned function runs: a store's wall
// time includes waiting for the disk, which a busy machine stretches.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() {
		b.ReportMetric(float64((cpuTime()-start).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLaterLines is what sizing a search's hits costs the call before
// its answer when their lines are written after it (laterLines: the copy
// of the items and their exact size), for content-many's 2,500 hits and
// search_files' 1,753 names.
func BenchmarkLaterLines(b *testing.B) {
	b.Run("hits=2500", func(b *testing.B) { benchLaterLines(b, benchHits()) })
	b.Run("names=1753", func(b *testing.B) { benchLaterLines(b, benchNames()) })
}

func benchLaterLines[T any](b *testing.B, items []T) {
	want, err := JSONLines(items)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(want)))
	for b.Loop() {
		if size, _, ok := laterLines(items); !ok || size != int64(len(want)) {
			b.Fatalf("sized %d (ok %v); want %d", size, ok, len(want))
		}
	}
}
