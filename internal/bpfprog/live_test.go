package bpfprog

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// ebpfWorkloadEnv makes the re-executed test binary a workload.
const ebpfWorkloadEnv = "HOSTMCP_EBPF_WORKLOAD"

func TestMain(m *testing.M) {
	switch os.Getenv(ebpfWorkloadEnv) {
	case "resolve":
		resolveWorkload()
	case "preflight":
		if err := Supported(); err != nil {
			fmt.Println("refused:", err)
		} else {
			fmt.Println("allowed")
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// onAttach is a Progress that starts the workload f once the programs are
// attached (its first report), so that the trace sees all of it however
// long loading took.
func onAttach(f func()) Progress {
	var once sync.Once
	return func(time.Duration) { once.Do(func() { go f() }) }
}

// requireEBPF is bpfprogtest.Require, which this package's tests cannot
// import (it imports this package).
func requireEBPF(t *testing.T) {
	t.Helper()
	testutil.Live(t)
	if _, err := MountTracefs(); err != nil {
		testutil.Missing(t, "%v", err)
	}
	if err := Supported(); err != nil {
		testutil.Missing(t, "%v", err)
	}
}

// Direct writes on the root disk show in the bio latency histogram.
func TestBioLatencyLive(t *testing.T) {
	requireEBPF(t)
	testutil.ExclusiveLoad(t)
	dir, err := os.MkdirTemp("/var/tmp", "hostmcp-bio-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	stop := make(chan struct{})
	defer close(stop)
	go directWrites(filepath.Join(dir, "f"), stop)
	got, err := BioLatency(context.Background(), 1500*time.Millisecond, BioOptions{UnitNS: 1000}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var n uint64
	for _, h := range got {
		for _, c := range h {
			n += c
		}
	}
	if n < 50 {
		t.Fatalf("%d block requests seen during direct writes: %v", n, got)
	}
}

func directWrites(path string, stop <-chan struct{}) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|syscall.O_DIRECT|syscall.O_DSYNC, 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	buf, _ := syscall.Mmap(-1, 0, 4096, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	for i := 0; ; i++ {
		select {
		case <-stop:
			return
		default:
		}
		_, _ = f.WriteAt(buf, int64(i%256)*4096)
	}
}

// More busy threads than CPUs make tasks wait on the run queue.
func TestRunqLatencyLive(t *testing.T) {
	requireEBPF(t)
	testutil.ExclusiveLoad(t)
	spinners := map[uint32]bool{}
	for range runtime.NumCPU() + 2 {
		c := exec.Command("sh", "-c", "while :; do :; done")
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
		spinners[uint32(c.Process.Pid)] = true
	}
	res, err := RunqLatency(context.Background(), time.Second, RunqOptions{}, nil)
	hs := res.Hists
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || hs[0].TGID != 0 {
		t.Fatalf("want one histogram of everything, got %+v", hs)
	}
	if n, slow := waits(hs[0].Slots); n < 100 || slow == 0 {
		t.Fatalf("run queue waits: %d, %d of them 1 ms or more: %v", n, slow, hs[0].Slots)
	}

	// The spinners never sleep: they wait only after being preempted, and
	// each must show those waits, in milliseconds, under its own pid.
	res, err = RunqLatency(context.Background(), time.Second, RunqOptions{PerProcess: true}, nil)
	hs = res.Hists
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, h := range hs {
		if !spinners[h.TGID] {
			continue
		}
		seen++
		if n, slow := waits(h.Slots); n == 0 || slow == 0 || h.Comm != "sh" || h.TotalUS < 1000 {
			t.Errorf("spinner %d (%q): %d waits, %d of 1 ms or more, %d µs in all", h.TGID, h.Comm, n, slow, h.TotalUS)
		}
	}
	if seen != len(spinners) {
		t.Errorf("%d of %d preempted spinners seen waiting", seen, len(spinners))
	}

	// A pid filter traces only that process.
	var one uint32
	for pid := range spinners {
		one = pid
		break
	}
	res, err = RunqLatency(context.Background(), time.Second, RunqOptions{TGID: one, PerProcess: true}, nil)
	hs = res.Hists
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || hs[0].TGID != one {
		t.Fatalf("with pid %d, got %+v", one, hs)
	}
}

// A process that waits in a run queue as sh, woken by a line on its
// stdin, and then execs sleep is named sleep.
func TestRunqNamesAfterExecLive(t *testing.T) {
	requireEBPF(t)
	sh := exec.Command("sh", "-c", "read -r x; exec sleep 30")
	stdin, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sh.Process.Kill(); _ = sh.Wait() })
	work := onAttach(func() { _, _ = stdin.Write([]byte("go\n")) })
	res, err := RunqLatency(context.Background(), time.Second, RunqOptions{TGID: uint32(sh.Process.Pid), PerProcess: true}, work)
	if err != nil {
		t.Fatal(err)
	}
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", sh.Process.Pid))
	if len(res.Hists) != 1 || res.Hists[0].Comm != "sleep" || strings.TrimSpace(string(comm)) != "sleep" {
		t.Fatalf("pid %d runs %q: %+v", sh.Process.Pid, comm, res.Hists)
	}
}

// waits counts a histogram's waits, and those of 1 ms (slot 10) or more.
func waits(h Slots) (n, slow uint64) {
	for i, c := range h {
		n += c
		if i >= 10 {
			slow += c
		}
	}
	return n, slow
}

// This process's own syscalls are counted, by name.
func TestCountSyscallsLive(t *testing.T) {
	requireEBPF(t)
	testutil.ExclusiveLoad(t) // a busy workload
	testutil.Loop(t, 0, func() { _ = syscall.Getppid() })
	c, err := CountSyscalls(context.Background(), time.Second, SyscountOptions{TGID: uint32(os.Getpid()), Latency: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.ByNumber[syscall.SYS_GETPPID]; st.Count < 1000 || st.TotalNS == 0 || st.Errors != 0 || SyscallName(syscall.SYS_GETPPID) != "getppid" {
		t.Fatalf("getppid counted %+v: %v", st, c.ByNumber)
	}
	if len(c.ByProcess) != 1 || c.ByProcess[uint32(os.Getpid())].Count == 0 {
		t.Fatalf("the pid filter let in %v", c.ByProcess)
	}
}

// Only failed calls are counted when asked: close(-1) fails with EBADF.
func TestCountSyscallErrorsLive(t *testing.T) {
	requireEBPF(t)
	testutil.ExclusiveLoad(t) // a busy workload
	testutil.Loop(t, 0, func() {
		_ = syscall.Close(-1)
		_ = syscall.Getppid()
	})
	c, err := CountSyscalls(context.Background(), time.Second, SyscountOptions{TGID: uint32(os.Getpid()), ErrorsOnly: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.ByNumber[syscall.SYS_CLOSE]; st.Count < 100 || st.Errors != st.Count {
		t.Fatalf("failed closes counted %+v", st)
	}
	if st, ok := c.ByNumber[syscall.SYS_GETPPID]; ok {
		t.Fatalf("getppid never fails but was counted: %+v", st)
	}
}

// Runs of /bin/true are seen with their parent.
func TestExecTraceLive(t *testing.T) {
	requireEBPF(t)
	work := onAttach(func() {
		for range 5 {
			_ = exec.Command("/bin/true").Run()
		}
		_ = exec.Command("/bin/echo", "1", "2", "3", "4").Run()
		_ = exec.Command("/nonexistent-hostmcp-test").Run() // Go tries execve: ENOENT
	})
	var events []ExecEvent
	_, err := ExecTrace(context.Background(), 1500*time.Millisecond, 3, work, func(e ExecEvent) { events = append(events, e) })
	if err != nil {
		t.Fatal(err)
	}
	n, failed := 0, 0
	for _, e := range events {
		if e.PPID != uint32(os.Getpid()) {
			continue
		}
		switch {
		case e.Filename == "/bin/true" && e.Ret == 0 && e.Comm == "true" && len(e.Args) == 1 && e.Args[0] == "/bin/true":
			n++
		case e.Filename == "/nonexistent-hostmcp-test" && e.Ret == -int32(syscall.ENOENT):
			failed++
		}
	}
	if n != 5 || failed != 1 {
		t.Fatalf("saw %d of 5 /bin/true runs and %d of 1 failed exec: %+v", n, failed, events)
	}
}

// Arguments beyond max_args are cut and marked so.
func TestExecTraceArgsLive(t *testing.T) {
	requireEBPF(t)
	work := onAttach(func() { _ = exec.Command("/bin/echo", "one", "two", "three", "four").Run() })
	var got *ExecEvent
	_, err := ExecTrace(context.Background(), time.Second, 3, work, func(e ExecEvent) {
		if e.Filename == "/bin/echo" && e.PPID == uint32(os.Getpid()) {
			got = &e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || len(got.Args) != 3 || got.Args[2] != "two" || !got.ArgsTruncated {
		t.Fatalf("echo's record: %+v", got)
	}
}

// A TCP connection to a local listener is seen opening and closing, with
// its ports and the bytes it carried.
func TestTCPTraceLive(t *testing.T) {
	requireEBPF(t)
	for _, lifecycle := range []bool{false, true} {
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := uint16(ln.Addr().(*net.TCPAddr).Port)
		go func() {
			c, err := ln.Accept()
			if err == nil {
				_, _ = io.Copy(io.Discard, c)
				c.Close()
			}
		}()
		work := onAttach(func() {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err == nil {
				_, _ = c.Write(make([]byte, 5000))
				time.Sleep(100 * time.Millisecond)
				c.Close()
			}
		})
		var seen []TCPEvent
		res, err := TCPTrace(context.Background(), 1500*time.Millisecond, TCPOptions{Lifecycle: lifecycle}, work, func(e TCPEvent) {
			if e.Remote.Port() == port || e.Local.Port() == port {
				seen = append(seen, e)
			}
		})
		ln.Close()
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 {
			t.Fatalf("lifecycle %v: no event for port %d", lifecycle, port)
		}
		var client *TCPEvent
		for i, e := range seen {
			if e.Remote.Port() == port && e.PID == uint32(os.Getpid()) {
				client = &seen[i]
			}
		}
		if client == nil || client.Remote.Addr().String() != "127.0.0.1" {
			t.Fatalf("lifecycle %v: the client's connection not among %+v", lifecycle, seen)
		}
		if !lifecycle && !client.Established {
			t.Fatalf("the connection was accepted but not seen established: %+v", client)
		}
		if lifecycle && (client.TxBytes < 5000 || client.TxBytes > 5002 || client.Duration < 100*time.Millisecond) {
			t.Fatalf("the client's connection: %+v", client)
		}
		// Counted in the kernel too, under this process and the port it
		// connected to.
		i := slices.IndexFunc(res.Peers, func(p PeerCount) bool { return p.PID == uint32(os.Getpid()) && p.RemotePort == port })
		if i < 0 || res.Peers[i].Count != 1 || res.Peers[i].TxBytes != client.TxBytes || res.Names.Of(hostinfo.New(hostinfo.Roots{}), uint32(os.Getpid())) == "" {
			t.Fatalf("lifecycle %v: the client's count among %+v", lifecycle, res.Peers)
		}
	}
}

// Slow and fast reads of a regular file are counted; a read slower than
// the threshold (a read from a file while the disk is synced cannot be
// forced, so the threshold is 0) is reported with the file's name.
func TestFileIOLive(t *testing.T) {
	requireEBPF(t)
	testutil.ExclusiveLoad(t) // a busy workload
	f, err := os.CreateTemp(t.TempDir(), "hostmcp-fileio-*")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stop := make(chan struct{})
	defer close(stop)
	child := exec.Command("sh", "-c", "while :; do cat \"$0\" >/dev/null; done", f.Name())
	if _, err := f.WriteString("hello hostmcp\n"); err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = child.Process.Kill(); _ = child.Wait() })
	var slow []SlowIO
	res, err := FileIO(context.Background(), time.Second, FileIOOptions{Slow: time.Nanosecond}, nil, func(s SlowIO) { slow = append(slow, s) })
	if err != nil {
		t.Fatal(err)
	}
	if res.Read.Calls < 10 || res.Read.Bytes < 10*14 {
		t.Fatalf("reads: %+v", res.Read)
	}
	named := 0
	for _, s := range slow {
		if s.File == filepath.Base(f.Name()) && !s.Write && s.Comm == "cat" {
			named++
		}
	}
	if named == 0 {
		t.Fatalf("no read of %s among %d reports", f.Name(), len(slow))
	}
}

// Creating and removing a file shows as an open with O_CREAT and an unlink.
func TestFileOpsLive(t *testing.T) {
	requireEBPF(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "short-lived")
	work := onAttach(func() {
		_ = exec.Command("sh", "-c", "touch \"$0\"; sleep 0.2; rm \"$0\"; cat /nonexistent-hostmcp 2>/dev/null; true", path).Run()
	})
	var created, removed, failed bool
	var catPID uint32
	res, err := FileOps(context.Background(), 1500*time.Millisecond, FileOpsOptions{}, work, func(op FileOp) {
		switch {
		case op.Path == path && !op.Unlink && op.Flags&syscall.O_CREAT != 0 && op.Ret >= 0:
			created = true
		case op.Path == path && op.Unlink && op.Ret == 0:
			removed = true
		case op.Path == "/nonexistent-hostmcp" && op.Ret == -int64(syscall.ENOENT) && op.Comm == "cat":
			failed, catPID = true, op.PID
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if !created || !removed || !failed {
		t.Fatalf("created %v, removed %v, failed open %v", created, removed, failed)
	}
	// Counted in the kernel too, by process, path and errno, under the
	// name the process ran by.
	for _, p := range res.Paths {
		if p.Path == "/nonexistent-hostmcp" && p.PID == catPID {
			if p.Errno != uint32(syscall.ENOENT) || p.Count != 1 || p.Unlink || res.Names.Of(hostinfo.New(hostinfo.Roots{}), p.PID) != "cat" {
				t.Fatalf("cat's failed open: %+v, named %q", p, res.Names.Of(hostinfo.New(hostinfo.Roots{}), p.PID))
			}
			return
		}
	}
	t.Fatalf("cat's failed open is not counted: %d paths", len(res.Paths))
}
