// Package sessinit is the first process of every interactive session. The
// server starts it by re-executing its own binary (/proc/self/exe) in new
// PID and mount namespaces; it mounts a private /proc and a private HOME,
// gives up every capability, confines itself with the Landlock ruleset the
// server built, and then runs the session's program as its only child,
// which inherits all of that, as another user if the server asks.
//
// Why: a session runs code of the agent's choosing, often as root. In its
// own PID namespace with its own /proc it cannot even name the server, so
// it cannot read the server's environment (the HTTP token), memory or
// descriptors, nor signal it; without capabilities root's file permissions
// are all it has, and Landlock keeps even those to the roots and the
// system files the program needs; and when this init dies, for whatever
// reason, the kernel kills everything left in the namespace, so nothing a
// session started can outlive it or the server.
package sessinit

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/landlock"
)

// Env marks a process started as a session init. Its value is the
// session's Setup, as JSON (see Setup.EnvEntry).
const Env = "HOSTMCP_SESSINIT"

// StatusFD is the descriptor on which init reports the wait status of the
// session's program, in decimal, before it exits. The server reads it
// because init, as PID 1 of its namespace, cannot die of the signal that
// ended the program and so cannot pass that on in its own status.
const StatusFD = 3

// Argv0 names the init in process listings.
const Argv0 = "hostmcp-session"

// Main runs this process as a session init, and never returns, when it was
// started as one; otherwise it returns at once. Call it first in main, and
// in TestMain of tests whose binary starts sessions.
func Main() {
	v := os.Getenv(Env)
	if v == "" {
		return
	}
	setup, err := parseSetup(v)
	code := 127
	if err == nil {
		code, err = run(setup, os.Args[1:])
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "hostmcp session: %v\n", err)
	}
	os.Exit(code)
}

// Args builds init's argument list: the program's absolute path, then its
// argv.
func Args(path string, argv []string) []string {
	return append([]string{Argv0, path}, argv...)
}

// run sets up the namespace and runs args[0] with argv args[1:].
func run(setup Setup, args []string) (int, error) {
	if len(args) < 2 {
		return 127, fmt.Errorf("want a program path and its argv, got %q", args)
	}
	unix.CloseOnExec(StatusFD) // the report is ours, not the program's
	unix.CloseOnExec(RulesetFD)
	if setup.AwaitIDMaps {
		if err := awaitIDMaps(); err != nil {
			return 127, err
		}
	}
	// Capabilities, no_new_privs and Landlock domains are per thread and a
	// child inherits them from the thread that forks it: set them up on
	// this thread and fork from it.
	runtime.LockOSThread()
	if err := privateProc(); err != nil {
		return 127, err
	}
	if setup.Home != "" {
		if err := mountHome(setup); err != nil {
			return 127, err
		}
	}
	var keep []int
	var cred *syscall.Credential
	if u := setup.User; u != nil {
		keep = []int{unix.CAP_SETUID, unix.CAP_SETGID}
		cred = &syscall.Credential{Uid: u.UID, Gid: u.GID, Groups: u.Groups}
	}
	if err := dropPrivileges(keep...); err != nil {
		return 127, err
	}
	if setup.Confined {
		if err := confine(setup); err != nil {
			return 127, fmt.Errorf("confining the session: %w", err)
		}
	}

	// Signals the server or the terminal sends to the session's process
	// group reach the program directly (it shares this process group);
	// catching them here keeps init alive until the program has ended.
	// Caught, not ignored: exec resets caught signals, never ignored ones.
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, unix.SIGINT, unix.SIGTERM, unix.SIGHUP, unix.SIGQUIT, unix.SIGUSR1, unix.SIGUSR2, unix.SIGWINCH)
	go func() {
		for range sigs {
		}
	}()

	cmd := &exec.Cmd{
		Path:        args[0],
		Args:        args[1:],
		Env:         withoutMarker(os.Environ()),
		Stdin:       os.Stdin,
		Stdout:      os.Stdout,
		Stderr:      os.Stderr,
		SysProcAttr: &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Credential: cred},
	}
	if err := cmd.Start(); err != nil {
		return 127, err
	}
	if keep != nil {
		if err := setCaps(); err != nil { // the program has switched: init needs them no more
			return 127, err
		}
	}
	ws := reap(cmd.Process.Pid)
	status := os.NewFile(StatusFD, "status")
	_, _ = fmt.Fprint(status, strconv.FormatUint(uint64(ws), 10))
	_ = status.Close()
	switch {
	case ws.Exited():
		return ws.ExitStatus(), nil
	case ws.Signaled():
		return 128 + int(ws.Signal()), nil
	}
	return 1, nil
}

// awaitIDMaps blocks until the server has mapped this process's user
// namespace, which it says with one byte on IDMapFD.
func awaitIDMaps() error {
	f := os.NewFile(IDMapFD, "id-maps")
	defer f.Close()
	var b [1]byte
	if n, _ := f.Read(b[:]); n != 1 {
		return errors.New("the server did not map the session's user namespace")
	}
	return nil
}

// confine adds what init mounted to the server's ruleset (the private
// /proc to read, HOME to write) and enforces it on this thread.
func confine(setup Setup) error {
	mounted := []landlock.PathRule{{Path: kernelpath.Proc, Access: landlock.Read}}
	if setup.Home != "" {
		mounted = append(mounted, landlock.PathRule{Path: setup.Home, Access: landlock.Write})
	}
	if err := landlock.AddPaths(RulesetFD, mounted); err != nil {
		return err
	}
	if err := landlock.RestrictSelf(RulesetFD); err != nil {
		return err
	}
	return unix.Close(RulesetFD)
}

// reap waits for children until pid has ended and returns its status. As
// PID 1 of the namespace init inherits every orphan, and reaps them too.
func reap(pid int) unix.WaitStatus {
	for {
		var ws unix.WaitStatus
		got, err := unix.Wait4(-1, &ws, 0, nil)
		if err == unix.EINTR {
			continue
		}
		if err != nil || got == pid {
			return ws
		}
	}
}

// privateProc makes this mount namespace's mounts private, so nothing done
// here propagates to the host, and mounts a /proc that shows this PID
// namespace only.
func privateProc() error {
	if err := unix.Mount("none", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return fmt.Errorf("making mounts private: %w", err)
	}
	if err := unix.Mount("proc", kernelpath.Proc, "proc", unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting a private /proc: %w", err)
	}
	return nil
}

// withoutMarker returns env without Env, so the program's own children
// that happen to be hostmcp do not take themselves for an init.
func withoutMarker(env []string) []string {
	out := env[:0:0]
	for _, kv := range env {
		if len(kv) > len(Env) && kv[:len(Env)+1] == Env+"=" {
			continue
		}
		out = append(out, kv)
	}
	return out
}
