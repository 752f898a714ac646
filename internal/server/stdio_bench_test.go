package server

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// benchLines are the valid messages the benchmarks read: a small request,
// and a 1 MiB fs_write whose content is source code, plain text with
// escapes and non-ASCII characters.
func benchLines() []struct {
	name string
	in   []byte
	n    int
} {
	small := `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"fs_read","arguments":{"path":"src/main.go","max_lines":200}}}`
	text := strings.Repeat(`func main() {\n\tfmt.Println(\"héllo, wörld\")\n}\n`, 1<<20/52)
	large := `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"fs_write","arguments":{"path":"a.go","content":"` + text + `"}}}`
	return []struct {
		name string
		in   []byte
		n    int
	}{
		{"small", []byte(strings.Repeat(small+"\n", 1000)), 1000},
		{"1MiB", []byte(strings.Repeat(large+"\n", 4)), 4},
	}
}

// BenchmarkFrameGuard measures what the guard costs a valid message on its
// way to the SDK; compare BenchmarkSDKStdioRead, the SDK's own reading of
// the same messages after it.
func BenchmarkFrameGuard(b *testing.B) {
	for _, bc := range benchLines() {
		in := bc.in
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			r := bytes.NewReader(in)
			src := bufio.NewReaderSize(r, 64<<10)
			cpu := cpuTime(b)
			for b.Loop() {
				r.Reset(in)
				src.Reset(r)
				g := newFrameGuard(src, 4<<20, io.Discard)
				if n, err := io.Copy(io.Discard, g); err != nil || n != int64(len(in)) {
					b.Fatalf("handed on %d of %d bytes: %v", n, len(in), err)
				}
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N)/float64(bc.n), "cpu-ns/msg")
		})
	}
}

// BenchmarkSDKStdioRead measures the go-sdk's stdio transport reading the
// messages BenchmarkFrameGuard hands it, for scale.
func BenchmarkSDKStdioRead(b *testing.B) {
	ctx := context.Background()
	for _, bc := range benchLines() {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(bc.in)))
			cpu := cpuTime(b)
			for b.Loop() {
				tr := &mcp.IOTransport{Reader: io.NopCloser(bytes.NewReader(bc.in)), Writer: nopWriteCloser{}, MaxLineLength: 4 << 20}
				conn, err := tr.Connect(ctx)
				if err != nil {
					b.Fatal(err)
				}
				for range bc.n {
					if _, err := conn.Read(ctx); err != nil {
						b.Fatal(err)
					}
				}
				conn.Close()
			}
			b.ReportMetric(float64(cpuTime(b)-cpu)/float64(b.N)/float64(bc.n), "cpu-ns/msg")
		})
	}
}

// cpuTime is the CPU time the process has used, in nanoseconds. On a
// machine shared with other builds, wall time per operation mostly
// measures the others; CPU time measures the guard.
func cpuTime(b *testing.B) int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
