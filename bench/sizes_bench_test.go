package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// The answers below are measured as the model reads them: the envelope's
// compact JSON, which is the text content and, stringified, what clients
// such as Claude Code pass on from structuredContent. Bytes are what matter
// here, not time; each benchmark still loops so benchstat can summarise it.

// answerText calls a tool and returns its envelope's JSON and data.
func answerText(b *testing.B, cs *mcp.ClientSession, name string, args any) (string, map[string]json.RawMessage) {
	b.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil || res.IsError {
		b.Fatalf("%s: %v %+v", name, err, res)
	}
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			var env struct {
				Data map[string]json.RawMessage `json:"data"`
			}
			if err := json.Unmarshal([]byte(t.Text), &env); err != nil || env.Data == nil {
				b.Fatalf("%s: no data in %.300s: %v", name, t.Text, err)
			}
			return t.Text, env.Data
		}
	}
	b.Fatalf("%s: no text content", name)
	return "", nil
}

// items counts the array at key of data.
func items(b *testing.B, data map[string]json.RawMessage, key string) int {
	var list []json.RawMessage
	if err := json.Unmarshal(data[key], &list); err != nil || len(list) == 0 {
		b.Fatalf("data.%s: %v (%d items)", key, err, len(list))
	}
	return len(list)
}

// BenchmarkProcListSize is proc_list with its defaults (the top 100 by
// CPU) over the machine's own processes: bytes of the answer per process
// shown (target: at most 100).
func BenchmarkProcListSize(b *testing.B) {
	cs, _ := connect(b)
	var text string
	var n int
	for b.Loop() {
		var data map[string]json.RawMessage
		text, data = answerText(b, cs, "proc_list", map[string]any{})
		n = items(b, data, "processes")
	}
	b.ReportMetric(float64(n), "processes")
	b.ReportMetric(float64(len(text))/1024, "answer-KiB")
	b.ReportMetric(float64(len(text))/float64(n), "B/process")
}

// BenchmarkFsListSize is fs_list with its defaults (depth 2, the first 500
// entries) over a copy of $(go env GOROOT)/src: bytes of the answer per
// entry shown (target: at most 50 on average).
func BenchmarkFsListSize(b *testing.B) {
	cs, _ := connectRoot(b, goSrc(b))
	var text string
	var n int
	for b.Loop() {
		var data map[string]json.RawMessage
		text, data = answerText(b, cs, "fs_list", map[string]any{})
		n = items(b, data, "entries")
	}
	b.ReportMetric(float64(n), "entries")
	b.ReportMetric(float64(len(text))/1024, "answer-KiB")
	b.ReportMetric(float64(len(text))/float64(n), "B/entry")
}

// BenchmarkFsReadSize is fs_read of whole 200-line files: how much the
// answer adds to the file's own bytes (target: at most 10 %). "text" is a
// log of 200 lines; "go" is the first 200 lines of every 10th Go source file
// of GOROOT/src that has as many, tab-indented code whose JSON escaping
// (\t, \n, \") is most of what is added, reported as the median and the
// 90th percentile over the files, with the median of that escaping alone.
func BenchmarkFsReadSize(b *testing.B) {
	b.Run("text", func(b *testing.B) {
		root := b.TempDir()
		logFile(b, filepath.Join(root, "app.log"), 200)
		cs, _ := connectRoot(b, root)
		size := fileSize(b, filepath.Join(root, "app.log"))
		var text string
		for b.Loop() {
			text, _ = answerText(b, cs, "fs_read", map[string]any{"path": "app.log"})
		}
		b.ReportMetric(float64(size), "file-B")
		b.ReportMetric(float64(len(text)), "answer-B")
		b.ReportMetric(overhead(len(text), size), "%over")
	})
	b.Run("go", func(b *testing.B) {
		root := b.TempDir()
		names := goHeads(b, root, 200, 10)
		cs := connectLoad(b, root, "[load]\ncalls_per_second = 1000000\nburst = 1000000\n") // a file per call
		var over, escaping []float64
		for b.Loop() {
			over, escaping = over[:0], escaping[:0]
			for _, name := range names {
				text, _ := answerText(b, cs, "fs_read", map[string]any{"path": name})
				content, err := os.ReadFile(filepath.Join(root, name))
				if err != nil {
					b.Fatal(err)
				}
				asJSON, err := tool.MarshalJSON(string(content))
				if err != nil {
					b.Fatal(err)
				}
				over = append(over, overhead(len(text), int64(len(content))))
				escaping = append(escaping, overhead(len(asJSON)-len(`""`), int64(len(content))))
			}
		}
		slices.Sort(over)
		slices.Sort(escaping)
		b.ReportMetric(float64(len(over)), "files")
		b.ReportMetric(over[len(over)/2], "median-%over")
		b.ReportMetric(over[len(over)*9/10], "p90-%over")
		b.ReportMetric(escaping[len(escaping)/2], "median-%escaping")
	})
}

func overhead(answer int, file int64) float64 {
	return (float64(answer)/float64(file) - 1) * 100
}

func fileSize(b *testing.B, p string) int64 {
	st, err := os.Stat(p)
	if err != nil {
		b.Fatal(err)
	}
	return st.Size()
}

// goHeads writes into dir the first lines lines of every every-th Go file
// of GOROOT/src (in path order) that has at least that many, and returns
// their names: the same inputs on every machine with the same Go.
func goHeads(b *testing.B, dir string, lines, every int) []string {
	b.Helper()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatalf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	var names []string
	seen := 0
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "/testdata/") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if bytes.Count(data, []byte{'\n'}) < lines {
			return nil
		}
		if seen++; seen%every != 0 {
			return nil
		}
		head := data
		for i, n := 0, 0; i < len(data); i++ {
			if data[i] == '\n' {
				if n++; n == lines {
					head = data[:i+1]
					break
				}
			}
		}
		name := fmt.Sprintf("f%04d.go", len(names))
		names = append(names, name)
		return os.WriteFile(filepath.Join(dir, name), head, 0o644)
	})
	if err != nil || len(names) == 0 {
		b.Fatalf("collecting Go sources under %s: %v (%d files)", src, err, len(names))
	}
	return names
}
