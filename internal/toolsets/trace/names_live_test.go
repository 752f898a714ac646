package trace

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// forkedDD starts bash, which waits for a line on stdin, then forks a
// child that makes the redirection given (as bash: opening a file, or
// connecting with /dev/tcp) and execs dd, which copies what else comes on
// stdin a byte at a time and then waits for more until the test ends. $0
// in redirect is arg. run sends the line and n bytes and returns dd's pid.
func forkedDD(t *testing.T, redirect, arg string, n int) (run func() int) {
	t.Helper()
	bash := testutil.RequireBinary(t, "bash")
	sh := exec.Command(bash, "-c", `exec 3<&0; read -r line; dd bs=1 of=/dev/null <&3 3<&- `+redirect+` 2>/dev/null & echo $!; wait`, arg)
	stdin, err := sh.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := sh.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sh.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stdin.Close(); _ = sh.Process.Kill(); _ = sh.Wait() }) // dd then reads the end of its input and exits
	return func() int {
		if _, err := stdin.Write([]byte("go\n" + strings.Repeat("x", n))); err != nil {
			return 0
		}
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		pid, _ := strconv.Atoi(strings.TrimSpace(line))
		return pid
	}
}

// procIO reads a process's read and write system calls from /proc/PID/io.
func procIO(t *testing.T, pid int) (syscr, syscw uint64) {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		k, v, _ := strings.Cut(line, ": ")
		n, _ := strconv.ParseUint(v, 10, 64)
		switch k {
		case "syscr":
			syscr = n
		case "syscw":
			syscw = n
		}
	}
	return syscr, syscw
}

// A child bash forks runs dd: its system calls are counted under dd, the
// name it runs by (as /proc/PID/comm says), not bash, the name it made its
// first calls by; and at least the reads and writes /proc/PID/io counts.
func TestSyscallCountNamesAfterExecLive(t *testing.T) {
	s := newSet(t)
	run := forkedDD(t, "", "", 20000)
	pid := make(chan int, 1)
	out := tooltest.MustRunStarted[syscountOut](t, context.Background(), s.syscallCount(),
		map[string]any{"duration_seconds": 2, "per_process": true, "top_n": 50}, func() { pid <- run() })
	dd := <-pid
	comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", dd))
	syscr, syscw := procIO(t, dd)
	if strings.TrimSpace(string(comm)) != "dd" || syscr < 20000 || syscw < 20000 {
		t.Fatalf("pid %d runs %q and made %d reads and %d writes: not the dd expected", dd, comm, syscr, syscw)
	}
	i := slices.IndexFunc(out.Processes, func(p processRow) bool { return p.PID == uint32(dd) })
	if i < 0 {
		t.Fatalf("dd (pid %d) is not among the processes: %+v", dd, out.Processes)
	}
	if p := out.Processes[i]; p.Comm != "dd" || p.Count < syscr+syscw {
		t.Fatalf("the forked dd (pid %d, %d reads and %d writes) is counted as %+v", dd, syscr, syscw, p)
	}
}

// The file a forked child opens for its standard output before it execs dd
// is counted under dd, by the pid /proc says runs dd. The trace is of the
// whole host, whose other opens may fill the table an answer lists: the
// test reads the whole of it.
func TestFileOpsNameAfterExecLive(t *testing.T) {
	newSet(t)
	errFile := filepath.Join(t.TempDir(), "err")
	run := forkedDD(t, `>"$0"`, errFile, 10)
	pid := make(chan int, 1)
	var once sync.Once
	started := func(time.Duration) { once.Do(func() { go func() { pid <- run() }() }) }
	ops := newCollectOps(hostinfo.New(hostinfo.Roots{}), clock(), false)
	res, err := bpfprog.FileOps(context.Background(), 2*time.Second, bpfprog.FileOpsOptions{}, started, ops.add)
	if err != nil {
		t.Fatal(err)
	}
	dd := <-pid
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", dd)); strings.TrimSpace(string(comm)) != "dd" {
		t.Fatalf("pid %d runs %q, not dd", dd, comm)
	}
	rows, _ := ops.pathTable(res)
	i := slices.IndexFunc(rows, func(r pathRow) bool { return r.Path == errFile })
	if i < 0 {
		t.Fatalf("no row for %s among %d", errFile, len(rows))
	}
	if r := rows[i]; r.PID != uint32(dd) || r.Comm != "dd" || r.Count != 1 {
		t.Fatalf("the open of %s by the child that became dd (pid %d): %+v", errFile, dd, r)
	}
}

// The connection a forked child makes as bash (a /dev/tcp redirection)
// before it execs dd is counted under dd.
func TestTCPNamesAfterExecLive(t *testing.T) {
	s := newSet(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	run := forkedDD(t, `4<>"$0"`, fmt.Sprintf("/dev/tcp/127.0.0.1/%d", port), 10)
	pid := make(chan int, 1)
	out := tooltest.MustRunStarted[tcpOut](t, context.Background(), s.tcpTrace(),
		map[string]any{"duration_seconds": 2, "mode": "connections", "remote_port": port}, func() { pid <- run() })
	dd := <-pid
	if comm, _ := os.ReadFile(fmt.Sprintf("/proc/%d/comm", dd)); strings.TrimSpace(string(comm)) != "dd" {
		t.Fatalf("pid %d runs %q, not dd", dd, comm)
	}
	if len(out.ByPeer) != 1 || out.Total != 1 {
		t.Fatalf("one connection to port %d expected: %+v", port, out)
	}
	if r := out.ByPeer[0]; r.PID != uint32(dd) || r.Comm != "dd" || r.RemotePort != uint16(port) || r.Count != 1 || r.Failed == nil || *r.Failed != 0 {
		t.Fatalf("the connection of the child that became dd (pid %d): %+v", dd, r)
	}
}
