package proc

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// otherNamespaceProc is a procfs as seen from another pid namespace: the
// live child's files, and this process's and its ancestors', are there
// (so the child validates), under the same numbers,
// but its self names another pid than this process, as the host's
// procfs does for a server in a container with its own pid namespace.
// There, the number would name a different process than the one pidfd_open
// opens in the server's own namespace.
func otherNamespaceProc(t *testing.T, pid int) string {
	t.Helper()
	proc := filepath.Join(t.TempDir(), "proc")
	live, err := procs.New("", 0)
	if err != nil {
		t.Fatal(err)
	}
	ancestors, err := live.Ancestors(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"stat", "meminfo", "sys/kernel/pid_max"}
	for _, p := range append([]int{pid, os.Getpid()}, ancestors...) {
		names = append(names, strconv.Itoa(p)+"/stat", strconv.Itoa(p)+"/status", strconv.Itoa(p)+"/cmdline")
	}
	for _, name := range names {
		b, err := os.ReadFile(filepath.Join("/proc", name))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(proc, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(strconv.Itoa(os.Getpid()+100000), filepath.Join(proc, "self")); err != nil {
		t.Fatal(err)
	}
	return proc
}

// proc_kill signals through a pidfd of the server's own pid namespace, so
// it refuses when [host] proc is another namespace's procfs, where the pid
// it validated may be another process; the process is not signalled.
// proc_list still reads that procfs.
func TestKillRefusedInAnotherPIDNamespace(t *testing.T) {
	c := child(t, "sleep", nil)
	proc := otherNamespaceProc(t, c.Process.Pid)
	s := New(&Deps{Host: hostinfo.New(hostinfo.Roots{Proc: proc}), Config: config.ProcessConf{}})
	res := run(t, s, s.kill(), map[string]any{"pid": c.Process.Pid, "signal": "KILL"})
	wantCode(t, res, tool.CapabilityMissing)
	if !alive(c.Process.Pid) {
		t.Fatal("the signal reached the process")
	}
	out := decode[listOut](t, run(t, s, s.list(), map[string]any{"pids": []int{c.Process.Pid}}))
	if out.TotalProcesses != 1 {
		t.Errorf("proc_list of the other namespace's procfs: %+v", out)
	}
}

// The live procfs is the server's own namespace's: its self is this
// process.
func TestOwnPIDNamespaceLive(t *testing.T) {
	if !hostinfo.New(hostinfo.Roots{}).OwnPIDNamespace() {
		t.Error("/proc/self is not this process")
	}
}
