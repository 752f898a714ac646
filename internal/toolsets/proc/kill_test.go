package proc

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// The values kill(2) reads as groups or as everything, and pids no process
// can have, are refused by a check that makes no system call.
func TestCheckPIDRange(t *testing.T) {
	for _, pid := range []int{0, -1, -2, -4242, pidLimit, pidLimit + 1, 1 << 40} {
		err := checkPIDRange(pid)
		var te *tool.Error
		if !errors.As(err, &te) || te.Code != tool.InvalidPID {
			t.Errorf("pid %d: want INVALID_PID, got %v", pid, err)
		}
	}
	for _, pid := range []int{1, 2, 300, pidLimit - 1} {
		if err := checkPIDRange(pid); err != nil {
			t.Errorf("pid %d: %v", pid, err)
		}
	}
}

// Every protected or malformed target is refused, and the processes that
// a signal would have reached are still alive afterwards.
func TestKillRefusedLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	d := s.kill()
	// A child in its own process group: -pgid would signal it.
	grouped := child(t, "sleep", &syscall.SysProcAttr{Setpgid: true})
	pidMax, err := s.reader.PIDMax()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		pid  int
		code tool.Code
	}{
		{"init", 1, tool.KillForbidden},
		{"the server", os.Getpid(), tool.KillForbidden},
		{"the server's parent", os.Getppid(), tool.KillForbidden},
		{"kernel thread", 2, tool.KillForbidden},
		{"pid_max", pidMax, tool.InvalidPID},
		{"above pid_max", pidMax + 1000, tool.InvalidPID},
		{"own process group", 0, tool.InvalidPID},
		{"every process", -1, tool.InvalidPID},
		{"a process group", -grouped.Process.Pid, tool.InvalidPID},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			for _, sig := range []string{"TERM", "KILL"} {
				wantCode(t, run(t, s, d, map[string]any{"pid": tc.pid, "signal": sig}), tc.code)
			}
		})
	}
	if !alive(grouped.Process.Pid) || !alive(os.Getppid()) {
		t.Fatal("a refused call reached a process")
	}
	t.Run("a thread of the server", func(t *testing.T) {
		ents, err := os.ReadDir("/proc/self/task")
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if tid, _ := strconv.Atoi(e.Name()); tid != os.Getpid() {
				wantCode(t, run(t, s, d, map[string]any{"pid": tid}), tool.KillForbidden)
				return
			}
		}
		t.Skip("no second thread")
	})
	t.Run("no such process", func(t *testing.T) {
		gone := exec.Command("true")
		if err := gone.Run(); err != nil {
			t.Fatal(err)
		}
		wantCode(t, run(t, s, d, map[string]any{"pid": gone.Process.Pid}), tool.ProcessNotFound)
	})
	t.Run("bad signal and wait", func(t *testing.T) {
		wantCode(t, run(t, s, d, map[string]any{"pid": grouped.Process.Pid, "signal": "STOP"}), tool.InvalidParams)
		// wait_ms's range is in the schema now, as signal's values are.
		wantCode(t, run(t, s, d, map[string]any{"pid": grouped.Process.Pid, "wait_ms": 20000}), tool.InvalidParams)
	})
}

// TERM ends a well-behaved child, and wait_ms sees it go.
func TestKillChildLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	c := child(t, "sleep", nil)
	out := decode[killOut](t, run(t, s, s.kill(), map[string]any{"pid": c.Process.Pid, "wait_ms": 5000}))
	if !out.Success || !out.Waited || !out.Exited || out.Signal != "TERM" {
		t.Fatalf("got %+v", out)
	}
	err := c.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
		t.Errorf("child ended with %v, want SIGTERM", err)
	}
}

// A child that ignores TERM is reported as still running; KILL ends it.
func TestKillEscalationLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	c := child(t, "ignore-term", nil)
	d := s.kill()
	out := decode[killOut](t, run(t, s, d, map[string]any{"pid": c.Process.Pid, "wait_ms": 300}))
	if !out.Waited || out.Exited || !alive(c.Process.Pid) {
		t.Fatalf("TERM: got %+v, alive %v", out, alive(c.Process.Pid))
	}
	out = decode[killOut](t, run(t, s, d, map[string]any{"pid": c.Process.Pid, "signal": "KILL", "wait_ms": 5000}))
	if !out.Exited {
		t.Fatalf("KILL: got %+v", out)
	}
}

// A pid whose start time no longer matches the validated one is a
// different process: nothing is sent.
func TestKillReusedPIDLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	c := child(t, "sleep", nil)
	tgt, err := s.validate(c.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	tgt.StartTicks-- // as if the validated process had exited and the pid been reused
	_, err = s.signal(t.Context(), &tgt, syscall.SIGKILL, 0)
	var te *tool.Error
	if !errors.As(err, &te) || te.Code != tool.ProcessNotFound {
		t.Fatalf("want PROCESS_NOT_FOUND, got %v", err)
	}
	if !alive(c.Process.Pid) {
		t.Fatal("the signal reached the process")
	}
}

// Another user's process is refused unless the operator allows it.
func TestKillOtherUserLive(t *testing.T) {
	testutil.RequireRoot(t)
	cmd := exec.Command("sleep", "60")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	s := newSet(config.ProcessConf{})
	wantCode(t, run(t, s, s.kill(), map[string]any{"pid": cmd.Process.Pid}), tool.PermissionDenied)
	if !alive(cmd.Process.Pid) {
		t.Fatal("refused, yet the process is gone")
	}
	s = newSet(config.ProcessConf{AllowKillOtherUsers: true})
	out := decode[killOut](t, run(t, s, s.kill(), map[string]any{"pid": cmd.Process.Pid, "signal": "KILL", "wait_ms": 5000}))
	if !out.Exited || out.User != "nobody" {
		t.Fatalf("got %+v", out)
	}
}
