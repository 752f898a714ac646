package trace

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog/bpfprogtest"
	"github.com/hostmcp/hostmcp/internal/stacks"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

func newSet(t *testing.T) *Set {
	t.Helper()
	bpfprogtest.Require(t)
	return New(nil)
}

// start runs a command for the test and ends it (by its pid) afterwards.
func start(t *testing.T, name string, args ...string) *exec.Cmd {
	t.Helper()
	c := exec.Command(name, args...)
	if err := c.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	return c
}

// later runs f after d in the background, while a trace is running.
func later(d time.Duration, f func()) {
	go func() {
		time.Sleep(d)
		f()
	}()
}

// Direct writes reach the disk: a per-device linear histogram in ms names
// the device, and filtering on that device gives it alone.
func TestBioLatencyLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)
	dir, err := os.MkdirTemp("/var/tmp", "hostmcp-trace-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	dd := func() {
		start(t, "dd", "if=/dev/zero", "of="+filepath.Join(dir, "f"), "bs=4096", "count=100000", "oflag=direct,dsync")
	}
	dd()
	out := tooltest.MustRun[histOut](t, context.Background(), s.bioLatency(),
		map[string]any{"duration_seconds": 1, "per_device": true, "histogram_type": "linear", "linear_bucket_ms": 5})
	if out.Unit != "ms" || out.HistogramType != "linear" || out.Total < 20 || len(out.Histograms) == 0 {
		t.Fatalf("%+v", out)
	}
	busiest := slices.MaxFunc(out.Histograms, func(a, b stacks.Histogram) int { return int(a.Count) - int(b.Count) })
	if b := busiest.Buckets[0]; b.Max-b.Min != 4 || b.Min%5 != 0 {
		t.Fatalf("linear buckets of 5 ms: %+v", busiest.Buckets)
	}
	one := tooltest.MustRun[histOut](t, context.Background(), s.bioLatency(), map[string]any{"duration_seconds": 1, "device": busiest.Key})
	if len(one.Histograms) != 1 || one.Histograms[0].Key != busiest.Key || one.Unit != "us" || one.Total == 0 {
		t.Fatalf("device %s alone: %+v", busiest.Key, one)
	}
	_, terr := tooltest.Run[histOut](t, context.Background(), s.bioLatency(), "test", map[string]any{"device": "no-such-disk"})
	if terr == nil || terr.Code != tool.InvalidArgument || !strings.Contains(terr.Suggestion, busiest.Key) {
		t.Fatalf("unknown device: %+v", terr)
	}
}

// More busy loops than CPUs make tasks wait: the spinners themselves, after
// each preemption, are among the processes ranked by time waited. (Not
// necessarily first: in CI other packages' tests run at the same time.)
func TestRunqLatencyLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t)
	spinners := map[uint32]bool{}
	for range runtime.NumCPU() + 1 {
		spinners[uint32(start(t, "sh", "-c", "while :; do :; done").Process.Pid)] = true
	}
	out := tooltest.MustRun[runqOut](t, context.Background(), s.runqLatency(), map[string]any{"duration_seconds": 1, "per_process": true, "top_n": 50})
	if out.Total < 50 || out.Histograms[0].P99 < 1000 || out.TotalWaitMS < 100 {
		t.Fatalf("run queue latency with more spinners than CPUs: %+v, %.1f ms in all", out.Histograms[0], out.TotalWaitMS)
	}
	if len(out.Processes) != min(out.ProcessesTotal, 50) || !slices.IsSortedFunc(out.Processes, func(a, b runqProcess) int { return cmp.Compare(b.TotalWaitMS, a.TotalWaitMS) }) {
		t.Fatalf("top 50 of %d processes, longest wait first: %+v", out.ProcessesTotal, out.Processes)
	}
	seen := 0
	for _, p := range out.Processes {
		if spinners[p.PID] {
			seen++
			if p.Comm != "sh" || p.P99US < 1000 || p.TotalWaitMS < 10 {
				t.Errorf("spinner %d should have waited milliseconds: %+v", p.PID, p)
			}
		}
	}
	if seen != len(spinners) {
		t.Errorf("%d of %d spinners among the processes that waited: %+v", seen, len(spinners), out.Processes)
	}

	var one int
	for pid := range spinners {
		one = int(pid)
	}
	out = tooltest.MustRun[runqOut](t, context.Background(), s.runqLatency(), map[string]any{"duration_seconds": 1, "pid": one})
	if out.Histograms[0].Key != fmt.Sprintf("pid %d", one) || out.Total == 0 || out.Processes != nil {
		t.Fatalf("pid %d alone: %+v", one, out)
	}
	if _, terr := tooltest.Run[runqOut](t, context.Background(), s.runqLatency(), "test", map[string]any{"pid": 1 << 30}); terr == nil || terr.Code != tool.PIDNotFound {
		t.Fatalf("a pid that does not exist: %+v", terr)
	}
}

// dd's reads and writes are counted by name, only dd's, with latency.
func TestSyscallCountLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t) // a busy workload
	dd := start(t, "dd", "if=/dev/zero", "of=/dev/null", "bs=1", "count=100000000")
	out := tooltest.MustRun[syscountOut](t, context.Background(), s.syscallCount(),
		map[string]any{"duration_seconds": 1, "comm": "dd", "per_process": true, "include_latency": true, "top_n": 2})
	names := []string{out.Syscalls[0].Name, out.Syscalls[1].Name}
	slices.Sort(names)
	if len(out.Syscalls) != 2 || names[0] != "read" || names[1] != "write" || out.Syscalls[0].AvgUS == nil || out.TotalCalls < 1000 ||
		out.SyscallsOf.Shown != 2 || out.SyscallsOf.Of < 2 {
		t.Fatalf("dd's syscalls: %+v, %+v", out.Syscalls, out.SyscallsOf)
	}
	// Only processes named dd: this test's, and any other test's running now.
	if !slices.ContainsFunc(out.Processes, func(p processRow) bool { return p.PID == uint32(dd.Process.Pid) }) ||
		slices.ContainsFunc(out.Processes, func(p processRow) bool { return p.Comm != "dd" }) {
		t.Fatalf("only dd was to be counted: %+v", out.Processes)
	}
}

// Execs by this test's process are listed with timestamps; a pattern
// selects them, failed ones are left out unless asked.
func TestExecTraceLive(t *testing.T) {
	s := newSet(t)
	args := map[string]any{"duration_seconds": 1, "pid": os.Getpid(), "name_pattern": "^true$", "include_timestamps": true}
	out := tooltest.MustRunStarted[execOut](t, context.Background(), s.execTrace(), args, func() {
		for range 3 {
			_ = exec.Command("/bin/true").Run()
		}
		_ = exec.Command("/bin/sleep", "0").Run()
		_ = exec.Command("/nonexistent/true").Run()
	})
	if out.Total != 3 || out.Failed != 0 {
		t.Fatalf("3 runs of true expected: %+v", out)
	}
	for _, e := range out.Execs {
		if e.Time == nil || *e.Time < 0 || *e.Time > 1.5 || e.PPID != uint32(os.Getpid()) || e.Filename != "/bin/true" {
			t.Fatalf("%+v", e)
		}
	}
	args["include_failed"] = true
	out = tooltest.MustRunStarted[execOut](t, context.Background(), s.execTrace(), args, func() { _ = exec.Command("/nonexistent/true").Run() })
	if out.Failed != 1 || out.Execs[0].Error != "ENOENT" {
		t.Fatalf("a failed exec expected: %+v", out)
	}
	_, terr := tooltest.Run[execOut](t, context.Background(), s.execTrace(), "test", map[string]any{"name_pattern": "("})
	if terr == nil || terr.Code != tool.InvalidArgument {
		t.Fatalf("a bad pattern: %+v", terr)
	}
}

// An outgoing connection to a local listener is seen established, and the
// port filter keeps other connections out.
func TestTCPTraceLive(t *testing.T) {
	s := newSet(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	out := tooltest.MustRunStarted[tcpOut](t, context.Background(), s.tcpTrace(),
		map[string]any{"duration_seconds": 1, "mode": "connections", "remote_port": port}, func() {
			for range 2 {
				if c, err := net.Dial("tcp", ln.Addr().String()); err == nil {
					c.Close()
				}
			}
		})
	if out.Total != 2 || out.Failed == nil || *out.Failed != 0 || out.ConnectionsOf != (listed{Shown: 2, Of: 2, How: howAll}) {
		t.Fatalf("2 connections to port %d expected: %+v", port, out)
	}
	if len(out.ByPeer) != 1 || out.ByPeer[0].PID != uint32(os.Getpid()) || out.ByPeer[0].Count != 2 || out.ByPeer[0].RemotePort != uint16(port) {
		t.Fatalf("counted by peer: %+v", out.ByPeer)
	}
	for _, c := range out.Connections {
		if c.PID != uint32(os.Getpid()) || c.Established == nil || !*c.Established || c.RemoteAddr != "127.0.0.1" || c.LocalPort == 0 {
			t.Fatalf("%+v", c)
		}
	}
}

// In lifecycle mode each side of a connection is credited to its own
// process, also a server's accepted connection, whose setup runs in softirq
// context (it was credited to whoever ran there: the idle task, or the
// client on loopback). Here a python server that writes and closes first,
// and this test as its client.
func TestTCPLifecycleOwnersLive(t *testing.T) {
	s := newSet(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close() // a free port for the server
	server, start := testutil.GatedPython(t, `import socket
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", int(sys.argv[1])))
s.listen(8)
for _ in range(2):
    c, _ = s.accept()
    c.sendall(b"x" * 100)
    c.close()`, strconv.Itoa(port))
	out := tooltest.MustRunStarted[tcpOut](t, context.Background(), s.tcpTrace(),
		map[string]any{"duration_seconds": 2}, func() {
			start()
			for range 2 {
				var c net.Conn
				for try := 0; try < 100; try++ { // until the server listens
					if c, err = net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port))); err == nil {
						break
					}
					time.Sleep(20 * time.Millisecond)
				}
				if err != nil {
					t.Errorf("dial: %v", err)
					return
				}
				_, _ = io.Copy(io.Discard, c) // until the server closed
				c.Close()
			}
		})
	servers, clients := 0, 0
	for _, c := range out.Connections {
		switch {
		case int(c.LocalPort) == port:
			servers++
			if c.PID != uint32(server.Process.Pid) || c.Comm != "python3" {
				t.Errorf("the server's side credited to %d (%s), not %d: %+v", c.PID, c.Comm, server.Process.Pid, c)
			}
		case int(c.RemotePort) == port && c.RxBytes != nil && *c.RxBytes == 0:
			// a dial refused before the server listened: a connection too
		case int(c.RemotePort) == port:
			clients++
			if c.PID != uint32(os.Getpid()) || c.RxBytes == nil || *c.RxBytes < 100 {
				t.Errorf("the client's side: %+v", c)
			}
		}
	}
	if servers != 2 || clients != 2 {
		t.Fatalf("want 2 connections seen from each side: %+v", out.Connections)
	}
}

// A process creating, reading and removing a file shows in all three
// modes. It waits for a line on stdin, sent once the trace is attached, and
// the trace follows it alone.
func TestFileTraceLive(t *testing.T) {
	s := newSet(t)
	path := filepath.Join(t.TempDir(), "short-lived")
	worker, start := testutil.GatedPython(t, `import os, time
p = sys.argv[1]
open(p, "w").write("hello\n")
open(p).read()
time.sleep(0.1)
os.unlink(p)`, path)
	args := map[string]any{"duration_seconds": 2, "min_latency_ms": 0, "pid": worker.Process.Pid}
	out := tooltest.MustRunStarted[fileOut](t, context.Background(), s.fileTrace(), args, start)
	if len(out.Mechanisms) != 2 || out.SlowTotal == nil || out.OpensTotal == nil {
		t.Fatalf("mode all: %+v", out)
	}
	var opened, read, lived bool
	for _, o := range out.Opens {
		opened = opened || (o.Path == path && strings.Contains(o.Flags, "O_CREAT") && o.FD != nil)
	}
	for _, r := range out.SlowOps {
		read = read || (r.File == "short-lived" && r.PID == uint32(worker.Process.Pid) && r.Op == "read" && r.Bytes == 6)
	}
	for _, l := range out.ShortLived {
		lived = lived || (l.Path == path && l.AgeMS >= 100 && strings.HasPrefix(l.DeletedBy, strconv.Itoa(worker.Process.Pid)+" "))
	}
	if !opened || !read || !lived {
		t.Fatalf("opened %v, read %v, short-lived %v: %+v", opened, read, lived, out)
	}
}

// `getent hosts` resolves through the C library and is timed there.
func TestDNSLatencyLive(t *testing.T) {
	s := newSet(t)
	getent := testutil.RequireBinary(t, "getent")
	const server = "127.0.0.154:53"
	testutil.ServeDNS(t, server)
	// A query on the wire, not through the C library: python's own socket.
	py, query := testutil.GatedPython(t, `
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.settimeout(2)
s.sendto(bytes([0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]) + b"\x04wire\x07hostmcp\x04test\x00\x00\x1c\x00\x01", ("127.0.0.154", 53))
s.recvfrom(512)
`)
	out := tooltest.MustRunStarted[dnsOut](t, context.Background(), s.dnsLatency(), map[string]any{"duration_seconds": 2}, func() {
		query()
		for range 3 {
			_ = exec.Command(getent, "hosts", "localhost").Run()
		}
	})
	// The trace is system-wide and other tests may resolve localhost too:
	// count getent's answered lookups (it asks for IPv6 first, which
	// /etc/hosts may not answer).
	answered := 0
	for _, l := range out.Lookups {
		if l.Host == "localhost" && l.Comm == "getent" && l.OK {
			answered++
		}
	}
	var counted uint64 // by the kernel, each getent a row of its own
	for _, h := range out.ByHost {
		if h.Host == "localhost" && h.Comm == "getent" {
			counted += h.Count
		}
	}
	if answered < 3 || counted < uint64(answered) || out.LatencyMS == nil || !strings.Contains(out.Mechanism, "libc") {
		t.Fatalf("%d answered lookups by getent, %d counted: %+v", answered, counted, out)
	}
	if p := slices.IndexFunc(out.Wire.ByProcess, func(p wireProcess) bool { return p.PID == uint32(py.Process.Pid) }); p < 0 ||
		out.Wire.ByProcess[p].Sent != 1 || out.Wire.ByProcess[p].Unanswered != 0 || out.Wire.ByProcess[p].Comm != "python3" {
		t.Fatalf("python's query counted: %+v", out.Wire.ByProcess)
	}
	w := slices.IndexFunc(out.Wire.Queries, func(q wireRow) bool { return q.PID == uint32(py.Process.Pid) })
	if w < 0 {
		t.Fatalf("python's query is not on the wire: %+v", out.Wire)
	}
	if q := out.Wire.Queries[w]; q.Name != "wire.hostmcp.test" || q.Type != "AAAA" || !q.Answered || q.Rcode != "NOERROR" || q.Server != server || q.LatencyMS <= 0 {
		t.Fatalf("python's query: %+v", q)
	}
	if !slices.ContainsFunc(out.Wire.ByName, func(n wireName) bool { return n.Name == "wire.hostmcp.test" }) || out.Wire.LatencyMS == nil {
		t.Fatalf("wire summary: %+v", out.Wire)
	}
}

// A reader blocked 50 ms at a time on a pipe makes slow reads: listed with
// include_all_files, while by default only regular files count.
func TestVFSSlowReadsLive(t *testing.T) {
	s := newSet(t)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	cat := exec.Command("cat")
	cat.Stdin = r
	if err := cat.Start(); err != nil {
		t.Fatal(err)
	}
	r.Close()
	t.Cleanup(func() { _ = cat.Process.Kill(); _ = cat.Wait() })
	testutil.Loop(t, 50*time.Millisecond, func() { _, _ = w.Write([]byte("x\n")) })
	args := map[string]any{"duration_seconds": 1, "min_latency_ms": 20, "pid": cat.Process.Pid, "include_all_files": true}
	out := tooltest.MustRun[vfsOut](t, context.Background(), s.vfsLatency(), args)
	if out.SlowTotal < 10 || out.Read.LatencyUS.P50 < 20_000 {
		t.Fatalf("slow pipe reads: %d, %+v", out.SlowTotal, out.Read.LatencyUS)
	}
	for _, op := range out.SlowOps {
		if op.Comm != "cat" || op.FileType != "pipe" || op.LatencyMS < 20 {
			t.Fatalf("%+v", op)
		}
	}
	args["include_all_files"] = false
	out = tooltest.MustRun[vfsOut](t, context.Background(), s.vfsLatency(), args)
	if out.Read.Calls != 0 || out.SlowTotal != 0 {
		t.Fatalf("cat reads only a pipe, yet regular-file reads were counted: %+v", out.Read)
	}
}

// Reads of a regular file by one process: counted, in the histogram, and
// listed with the file's full path (the descriptor stays open) when slower
// than 0 ms; the eBPF io_layers collector counts them too.
func TestVFSLatencyLive(t *testing.T) {
	s := newSet(t)
	testutil.ExclusiveLoad(t) // a busy workload
	f := filepath.Join(t.TempDir(), "data")
	if err := os.WriteFile(f, make([]byte, 1<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	sh := start(t, "sh", "-c", `exec 3<"$0"; while :; do read -r x <&3 || exec 3<"$0"; done`, f)
	out := tooltest.MustRun[vfsOut](t, context.Background(), s.vfsLatency(),
		map[string]any{"duration_seconds": 1, "min_latency_ms": 0, "pid": sh.Process.Pid})
	if out.Read.Calls < 50 || out.Read.LatencyUS.Count != out.Read.Calls || out.SlowTotal != out.Read.Calls+out.Write.Calls ||
		out.SlowOpsOf.Of != int(out.SlowTotal) || out.SlowOpsOf.Shown != len(out.SlowOps) {
		t.Fatalf("reads: %+v, slow %d (%+v), lost %d", out.Read, out.SlowTotal, out.SlowOpsOf, out.Lost)
	}
	if len(out.ByFile) != 1 || out.ByFile[0].Path != f || out.ByFile[0].Reads != out.Read.Calls ||
		len(out.ByProcess) != 1 || out.ByProcess[0].PID != uint32(sh.Process.Pid) || out.ByProcess[0].Comm != "sh" || out.ByProcess[0].Reads != out.Read.Calls {
		t.Fatalf("by file %+v, by process %+v", out.ByFile, out.ByProcess)
	}
	if op := out.SlowOps[0]; op.File != "data" || op.Path != f {
		t.Fatalf("a slow read names %q at %q, want data at %s", op.File, op.Path, f)
	}
}

// Cancelling a long trace detaches at once and says so.
func TestCancelDetachesLive(t *testing.T) {
	s := newSet(t)
	ctx, cancel := context.WithCancel(context.Background())
	later(300*time.Millisecond, cancel)
	begin := time.Now()
	_, terr := tooltest.Run[syscountOut](t, ctx, s.syscallCount(), "test", map[string]any{"duration_seconds": 60})
	if terr == nil || terr.Code != tool.Cancelled || time.Since(begin) > 3*time.Second {
		t.Fatalf("after %v: %+v", time.Since(begin), terr)
	}
}
