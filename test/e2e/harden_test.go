package e2e

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"
)

// A started server is hardened against the programs it runs, whichever
// toolsets it serves: it is not dumpable (the kernel then shows its /proc
// files as root's, so a process of its own user cannot read its environ or
// memory), a descriptor it inherited is close-on-exec (no child inherits it
// in turn), and its log says so once. Run as nobody, since a root server's
// /proc files are root's either way.
func TestServerHardenedAtStartUp(t *testing.T) {
	for _, tc := range []struct {
		name     string
		toolsets string
	}{
		{"repl served", "files,repl"},
		{"repl not served", "files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newNobodyEnv(t)
			ctx := testCtx(t)
			inherited, w, err := os.Pipe() // fd 3 of the server, without close-on-exec
			if err != nil {
				t.Fatal(err)
			}
			defer inherited.Close()
			defer w.Close()
			cmd := asNobody(exec.Command(binary, e.args("serve", "--toolsets", tc.toolsets, "--log-level", "info")...))
			cmd.ExtraFiles = []*os.File{inherited}
			var log lineLog
			cmd.Stderr = &log
			client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
			cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
			if err != nil {
				t.Fatalf("connecting to the server run as nobody: %v", err)
			}
			defer cs.Close()
			listTools(t, ctx, cs) // start-up is over once the tools are listed
			pid := strconv.Itoa(cmd.Process.Pid)

			if fi, err := os.Stat("/proc/" + pid + "/environ"); err != nil {
				t.Fatal(err)
			} else if uid := fi.Sys().(*syscall.Stat_t).Uid; uid != 0 {
				t.Errorf("the server is dumpable: its /proc/PID/environ belongs to uid %d, not root", uid)
			}
			info, err := os.ReadFile("/proc/" + pid + "/fdinfo/3")
			if err != nil {
				t.Fatal(err)
			}
			if flags := fdinfoFlags(t, string(info)); flags&unix.O_CLOEXEC == 0 {
				t.Errorf("the descriptor the server inherited is not close-on-exec (flags %o)", flags)
			}
			cs.Close()
			if lines := log.matching("hardened against the programs it runs"); len(lines) != 1 {
				t.Errorf("the log says the server was hardened %d times, want once: %q", len(lines), lines)
			}
		})
	}
}

// fdinfoFlags returns the "flags:" field of /proc/PID/fdinfo/FD, in octal
// there (proc(5)).
func fdinfoFlags(t *testing.T, info string) int64 {
	t.Helper()
	for _, l := range strings.Split(info, "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			f, err := strconv.ParseInt(strings.TrimSpace(v), 8, 64)
			if err != nil {
				t.Fatalf("fdinfo flags %q: %v", v, err)
			}
			return f
		}
	}
	t.Fatalf("no flags in fdinfo:\n%s", info)
	return 0
}
