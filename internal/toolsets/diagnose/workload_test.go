package diagnose

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// workloadEnv selects what the re-executed test binary does instead of
// running tests: one bottleneck of a scenario.
const workloadEnv = "HOSTMCP_PERF_WORKLOAD"

func TestMain(m *testing.M) {
	if w := os.Getenv(workloadEnv); w != "" {
		workload(w, os.Args[1:])
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// leaked holds the fdleak workload's descriptors.
var leaked []*os.File

// workload runs forever (until killed), after printing "ready".
func workload(kind string, args []string) {
	switch kind {
	case "spin":
		fmt.Println("ready")
		for x := 0; ; x++ {
			_ = x * x
		}
	case "reread": // reads args[0] again and again: from the page cache after the first time
		fmt.Println("ready")
		buf := make([]byte, 64<<10)
		for {
			if f, err := os.Open(args[0]); err == nil {
				for {
					if _, err := f.Read(buf); err != nil {
						break
					}
				}
				f.Close()
			}
		}
	case "fdleak": // opens a descriptor every 100 ms and never closes one
		fmt.Println("ready")
		for {
			f, err := os.Open("/dev/null")
			if err == nil {
				leaked = append(leaked, f) // referenced, so never closed by a finalizer
			}
			time.Sleep(100 * time.Millisecond)
		}
	case "alloc": // after a line on stdin (time to be put in a cgroup), touches args[0] MiB and holds them
		fmt.Println("ready")
		_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
		mb, _ := strconv.Atoi(args[0])
		// Outside the Go heap, so the race detector's shadow memory does not count.
		b, err := unix.Mmap(-1, 0, mb<<20, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		fmt.Println("allocated")
		for {
			time.Sleep(time.Hour)
			_ = b[0]
		}
	case "diskwrite": // synchronous direct writes to args[0], as fast as the disk takes them
		f, err := os.OpenFile(args[0], os.O_CREATE|os.O_WRONLY|syscall.O_DIRECT|syscall.O_DSYNC, 0o600)
		if err != nil {
			fmt.Println("error", err)
			return
		}
		buf, _ := unix.Mmap(-1, 0, 64<<10, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_ANON|unix.MAP_PRIVATE) // page aligned, as O_DIRECT wants
		fmt.Println("ready")
		for off := int64(0); ; off = (off + int64(len(buf))) % (64 << 20) {
			if _, err := f.WriteAt(buf, off); err != nil {
				return
			}
		}
	case "sink": // accepts TCP on args[0] and discards what arrives
		l, err := net.Listen("tcp", args[0])
		if err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("ready")
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, c) }()
		}
	case "send": // streams to args[0]
		var c net.Conn
		var err error
		for range 50 {
			if c, err = net.Dial("tcp", args[0]); err == nil {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if err != nil {
			fmt.Println("error", err)
			return
		}
		fmt.Println("ready")
		buf := make([]byte, 64<<10)
		for {
			if _, err := c.Write(buf); err != nil {
				return
			}
		}
	}
}

// workloadProc is a started workload: its command, stdin and stdout.
type workloadProc struct {
	*exec.Cmd
	in  io.Writer
	out *bufio.Reader
}

// startWorkload starts the test binary as kind, optionally through a
// prefix command (ip netns exec ...), waits for it to be ready, and kills
// it by pid when the test ends.
func startWorkload(t *testing.T, prefix []string, kind string, args ...string) *workloadProc {
	t.Helper()
	argv := append(append(append([]string{}, prefix...), os.Args[0]), args...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), workloadEnv+"="+kind)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	w := &workloadProc{Cmd: cmd, in: in, out: bufio.NewReader(out)}
	w.expect(t, "ready")
	return w
}

// expect reads the workload's next line and fails the test unless it is want.
func (w *workloadProc) expect(t *testing.T, want string) {
	t.Helper()
	line, err := w.out.ReadString('\n')
	if err != nil || line != want+"\n" {
		t.Fatalf("workload %v: want %q, got %q %v", w.Args, want, line, err)
	}
}

// newSet is the perf toolset over the real host.
func newSet() *Set { return New(&Deps{Host: hostinfo.New(hostinfo.Roots{})}) }
