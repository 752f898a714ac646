package server

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// BenchmarkStdioCall is one tools/call over the stdio transport, in
// process, whose tool answers 200 lines of a log (12 KB, what fs_read of
// issue 20's 200-line file answers): what the server pays a call beyond
// the tool itself (decoding, middleware, the envelope, encoding and
// writing the answer), with its allocations. cpu-ns/op is the whole
// process's, the pipe's client included.
func BenchmarkStdioCall(b *testing.B) {
	var lines strings.Builder
	for i := range 200 {
		fmt.Fprintf(&lines, "2026-11-22T10:%02d:%02d.%06dZ INFO GET /api/v1/items/%08d status=200 \"ok\" served in %03dms\n", i/60, i%60, i, i, i%997)
	}
	benchStdioCall(b, struct {
		Content string `json:"content"`
	}{lines.String()})
}

// BenchmarkStdioCallSearchAnswer is BenchmarkStdioCall whose tool answers
// newSearchData, an envelope of about 65 KB (what search_content answers
// for content-many).
func BenchmarkStdioCallSearchAnswer(b *testing.B) {
	benchStdioCall(b, newSearchData())
}

// benchStdioCall measures a tools/call over stdio whose tool answers data.
func benchStdioCall[T any](b *testing.B, data T) {
	set := fakeSet("bench", true)
	set.Tools = append(set.Tools, tool.New(tool.Spec{Name: "bench_read", Title: "read", Description: "answers its data", Kind: tool.ReadOnly},
		func(context.Context, *tool.Call, noIn) (T, error) { return data, nil }))
	cfg := config.Default(b.TempDir(), 0, func(string) string { return "" })
	cfg.Confirm.Tools = nil
	cfg.Load.CallsPerSecond, cfg.Load.Burst = 1e9, 1e9
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(b.TempDir(), "s.db")})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	s, err := New(Options{Config: cfg, Store: st, Toolsets: []tool.Toolset{set}})
	if err != nil {
		b.Fatal(err)
	}
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.ServeStdio(ctx, inR, outW, 1<<20) }()
	defer func() { cancel(); inW.Close(); <-done }()
	answers := bufio.NewReaderSize(outR, 1<<20)
	call := func(line string) string {
		if _, err := io.WriteString(inW, line+"\n"); err != nil {
			b.Fatal(err)
		}
		ans, err := answers.ReadString('\n')
		if err != nil {
			b.Fatal(err)
		}
		return ans
	}
	call(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"b","version":"1"}}}`)
	if _, err := io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		b.Fatal(err)
	}
	req := `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"bench_read","arguments":{}}}`
	ans := call(req)
	if !strings.Contains(ans, `"success":true`) || strings.Contains(ans, `"truncated":true`) {
		b.Fatalf("not a whole answer: %.300s", ans)
	}
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		call(req)
	}
	b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(len(ans)), "line-bytes")
}
