package bench

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// initializeLine is the request every start-up benchmark sends, as a
// client's first message.
const initializeLine = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}}` + "\n"

// BenchmarkStartToInitializeRaw is the time from exec to the initialize
// answer over a bare pipe: BenchmarkStartToInitialize without the go-sdk
// client's own work, so it is the server's alone. Its baseline is
// BenchmarkLineEchoStart, measured the same way.
func BenchmarkStartToInitializeRaw(b *testing.B) {
	state, root := b.TempDir(), b.TempDir()
	var cpu time.Duration
	for b.Loop() {
		cpu += startAndAnswer(b, exec.Command(binary, "serve", "--state-dir", state, "--root", root))
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// BenchmarkStartToToolsList is the time from exec to the answer of the
// first tools/list, sent as soon as initialize is answered, as a client
// does: the tools registered behind the initialize answer must not make
// the list come later than it did.
func BenchmarkStartToToolsList(b *testing.B) {
	for b.Loop() {
		send, answer, cmd := rawSessionCmd(b, "2025-06-18")
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		if line := answer(); !strings.Contains(string(line), `"tools":[`) {
			b.Fatalf("tools/list: %.200s", line)
		}
		b.StopTimer()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		b.StartTimer()
	}
}

// BenchmarkLineEchoStart is the floor for the above: exec of a static Go
// binary (testdata/lineecho, built like hostmcp) that answers the same line
// and exits.
func BenchmarkLineEchoStart(b *testing.B) {
	echo := filepath.Join(b.TempDir(), "lineecho")
	build := exec.Command("go", "build", "-trimpath", "-ldflags", "-s -w", "-o", echo, "./testdata/lineecho")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("building lineecho: %v\n%s", err, out)
	}
	var cpu time.Duration
	for b.Loop() {
		cpu += startAndAnswer(b, exec.Command(echo))
	}
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// startAndAnswer starts cmd, sends initialize and waits for the first line
// of the answer; closing stdin afterwards ends the process, which is
// waited for outside the timing. It returns the CPU time the process had
// used by the answer, which a loaded machine inflates far less than the
// wall time.
func startAndAnswer(b *testing.B, cmd *exec.Cmd) time.Duration {
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	if _, err := io.WriteString(stdin, initializeLine); err != nil {
		b.Fatal(err)
	}
	if _, err := bufio.NewReader(stdout).ReadBytes('\n'); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	cpu := cpuTime(b, cmd.Process.Pid)
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		b.Fatal(err)
	}
	b.StartTimer()
	return cpu
}

// cpuTime sums the time every thread of pid has run on a CPU, from
// /proc/<pid>/task/<tid>/schedstat (its first field, in nanoseconds).
func cpuTime(b *testing.B, pid int) time.Duration {
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/schedstat", pid))
	if err != nil || len(tasks) == 0 {
		b.Fatalf("no threads of %d: %v", pid, err)
	}
	var sum time.Duration
	for _, t := range tasks {
		data, err := os.ReadFile(t)
		if err != nil {
			continue // a thread that ended meanwhile
		}
		if f := strings.Fields(string(data)); len(f) > 0 {
			ns, _ := strconv.ParseInt(f[0], 10, 64)
			sum += time.Duration(ns)
		}
	}
	return sum
}

// BenchmarkIdleMemory is the server's memory after initialize, a tools/list
// with every default toolset and a second of idleness, over a bare pipe,
// split the way the kernel counts it: VmRSS is RssAnon (heap, stacks) plus
// RssFile (pages of the binary mapped in), Pss is what this process
// alone is charged, and VmHWM the peak of VmRSS, at start-up.
func BenchmarkIdleMemory(b *testing.B) {
	for b.Loop() {
		send, answer, cmd := rawSessionCmd(b, "2025-06-18")
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
		answer()
		time.Sleep(time.Second)
		pid := cmd.Process.Pid
		for _, key := range []string{"VmRSS:", "RssAnon:", "RssFile:", "VmHWM:"} {
			b.ReportMetric(float64(statusKB(b, pid, key))/1024, strings.TrimSuffix(key, ":")+"-MiB")
		}
		// Measured alone: a server still running would share the binary's
		// pages, and halve their part of Pss.
		b.ReportMetric(float64(procKB(b, fmt.Sprintf("/proc/%d/smaps_rollup", pid), "Pss:"))/1024, "Pss-MiB")
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	}
}
