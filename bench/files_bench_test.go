package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/landlock"
)

// connectRoot starts `hostmcp serve` with root as its only root.
func connectRoot(b *testing.B, root string) (*mcp.ClientSession, *exec.Cmd) {
	b.Helper()
	cmd := exec.Command(binary, "serve", "--state-dir", b.TempDir(), "--root", root)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs, cmd
}

// BenchmarkFsRead200Lines is fs_read of a whole 200-line file through a
// stdio client (baseline: BenchmarkPingStdio in the same run).
func BenchmarkFsRead200Lines(b *testing.B) {
	root := b.TempDir()
	var s strings.Builder
	for i := range 200 {
		fmt.Fprintf(&s, "%04d the quick brown fox jumps over the lazy dog\n", i)
	}
	if err := os.WriteFile(filepath.Join(root, "f.txt"), []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	cs, _ := connectRoot(b, root)
	loopLatency(b, func() { callTool(b, cs, "fs_read", map[string]any{"path": "f.txt"}) })
}

// logFile writes n log-like lines (~60 bytes each).
func logFile(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for i := range n {
		fmt.Fprintf(w, "2026-11-22T03:%02d:%02dZ INFO request id=%09d served in %dms\n", i/60%60, i%60, i, i%97)
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	f.Close()
}

// benchWindow reads 100 lines at line 1,000,000 of an n-line file and
// reports the server's peak resident memory, so the 2M and 20M runs show
// whether time or memory grow with the file.
func benchWindow(b *testing.B, n int) {
	root := b.TempDir()
	logFile(b, filepath.Join(root, "big.log"), n)
	cs, cmd := connectRoot(b, root)
	b.ResetTimer()
	loopLatency(b, func() {
		callTool(b, cs, "fs_read", map[string]any{"path": "big.log", "offset_lines": 1_000_000, "max_lines": 100})
	})
	b.ReportMetric(float64(statusKB(b, cmd.Process.Pid, "VmHWM:"))/1024, "server-peak-RSS-MiB")
}

func BenchmarkFsReadWindow2M(b *testing.B)  { benchWindow(b, 2_000_000) }
func BenchmarkFsReadWindow20M(b *testing.B) { benchWindow(b, 20_000_000) }

func statusKB(b *testing.B, pid int, key string) int {
	return procKB(b, fmt.Sprintf("/proc/%d/status", pid), key)
}

// procKB reads the kB figure of key ("VmRSS:", "Pss:") from a /proc file
// of that layout (status, smaps_rollup); 0 when it has none.
func procKB(b *testing.B, path, key string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if f := strings.Fields(l); len(f) >= 2 && f[0] == key {
			n, _ := strconv.Atoi(f[1])
			return n
		}
	}
	return 0
}

// goSrc copies $(go env GOROOT)/src into a temporary directory.
func goSrc(b *testing.B) string {
	b.Helper()
	dst := filepath.Join(b.TempDir(), "src")
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Fatalf("go env GOROOT: %v", err)
	}
	if out, err := exec.Command("cp", "-a", filepath.Join(strings.TrimSpace(string(goroot)), "src"), dst).CombinedOutput(); err != nil {
		b.Fatalf("copying GOROOT/src: %v %s", err, out)
	}
	return dst
}

// benchPattern is a regex with a few hundred hits spread over the tree.
const benchPattern = `func \(\w+ \*\w+\) Close\(\)`

// BenchmarkSearchContentGoSrc compares search_content (rg and native
// engines, through the stdio client) with rg run directly in the same run.
func BenchmarkSearchContentGoSrc(b *testing.B) {
	src := goSrc(b)
	cs, _ := connectRoot(b, src)
	for _, eng := range []string{"rg", "native"} {
		b.Run("engine="+eng, func(b *testing.B) {
			loopLatency(b, func() {
				callTool(b, cs, "search_content", map[string]any{"pattern": benchPattern, "ignore_case": false, "context_lines": 0, "engine": eng})
			})
		})
	}
	b.Run("rg-direct", func(b *testing.B) {
		loopLatency(b, func() { rgDirect(b, src, "--line-number", "--regexp="+benchPattern) })
	})
}

// BenchmarkSearchFilesGoSrc compares search_files with rg --files.
func BenchmarkSearchFilesGoSrc(b *testing.B) {
	src := goSrc(b)
	cs, _ := connectRoot(b, src)
	for _, eng := range []string{"rg", "native"} {
		b.Run("engine="+eng, func(b *testing.B) {
			loopLatency(b, func() {
				callTool(b, cs, "search_files", map[string]any{"pattern": "_test.go", "engine": eng})
			})
		})
	}
	b.Run("rg-direct", func(b *testing.B) {
		loopLatency(b, func() { rgDirect(b, src, "--files") })
	})
}

// rgDirect runs rg in dir and drains its output, as a caller would.
func rgDirect(b *testing.B, dir string, args ...string) {
	cmd := exec.Command("rg", append([]string{"--no-config"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkRgConfinement is what Landlock costs rg itself: the same rg run
// over the same tree, plain and confined to it, alternating in one run.
func BenchmarkRgConfinement(b *testing.B) {
	src := goSrc(b)
	dir, err := os.Open(src)
	if err != nil {
		b.Fatal(err)
	}
	defer dir.Close()
	ex, err := execx.New(&execx.Options{Allowed: []string{"rg"}})
	if err != nil {
		b.Fatal(err)
	}
	for _, args := range [][]string{{"--files"}, {"--line-number", "--regexp=" + benchPattern}} {
		for _, confine := range []*landlock.Policy{nil, {Read: []*os.File{dir}}} {
			name := fmt.Sprintf("%s/confined=%v", strings.TrimLeft(args[0], "-"), confine != nil)
			b.Run(name, func(b *testing.B) {
				if confine != nil && landlock.ABI() == 0 {
					b.Skip(landlock.ErrUnsupported)
				}
				cmd := execx.Cmd{Name: "rg", Args: append([]string{"--no-config"}, append(args, "--", ".")...), Dir: src, Confine: confine}
				loopLatency(b, func() {
					if _, err := ex.Run(context.Background(), cmd); err != nil {
						b.Fatal(err)
					}
				})
			})
		}
	}
}

// BenchmarkFsListDirSizesGoSrc is fs_list's du mode over a copy of
// $(go env GOROOT)/src (about 13,000 entries) through the stdio client,
// against du -sx over the same tree in the same run.
func BenchmarkFsListDirSizesGoSrc(b *testing.B) {
	src := goSrc(b)
	cs, _ := connectRoot(b, src)
	b.Run("fs_list", func(b *testing.B) {
		loopLatency(b, func() {
			callTool(b, cs, "fs_list", map[string]any{"depth": 0, "dir_sizes": true, "sort": "size", "max_entries": 20})
		})
	})
	b.Run("du-direct", func(b *testing.B) {
		loopLatency(b, func() {
			if out, err := exec.Command("du", "-x", "--max-depth=1", "--block-size=1", src).CombinedOutput(); err != nil {
				b.Fatalf("du: %v %s", err, out)
			}
		})
	})
}
