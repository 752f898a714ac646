// Package window is the program perf records during: it sleeps for the
// recording window and then exits, which ends the recording, as `sleep N`
// would. Unlike sleep it dies with perf. perf forks its workload itself, so
// the parent-death signal the server gives its children does not reach it:
// a `sleep 60` outlived a server killed with SIGKILL, and perf with it, by
// the rest of the minute. The server runs this very binary as the
// workload, which asks the kernel for SIGKILL when perf ends and checks
// that perf had not already ended.
//
// Why a workload at all: the perf here (6.1) records nothing from `perf
// record -p PID` stopped by a signal; ending with its workload is the path
// that works in every mode.
package window

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/procs"
)

// Env marks a process started as a window. Its value is "1". perf passes
// its environment on to its workload, so it goes into perf's.
const Env = "HOSTMCP_PERF_WINDOW"

// Main runs this process as a window, and never returns, when it was
// started as one; otherwise it returns at once. Call it first in main, and
// in TestMain of tests whose binary runs perf recordings.
func Main() {
	if os.Getenv(Env) != "1" {
		return
	}
	code := 0
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintf(os.Stderr, "hostmcp perf window: %v\n", err)
		code = 1
	}
	// At once: there is nothing to flush, and the race detector's exit
	// hook in a test binary would hold the recording up by a second.
	unix.Exit(code)
}

// Args is the workload's argv, for perf's command line after "--": exe
// (this binary's path), the window's length in whole seconds, and the pid
// of the server that runs perf.
func Args(exe string, d time.Duration, server int) []string {
	return []string{exe, strconv.Itoa(int(d / time.Second)), strconv.Itoa(server)}
}

// run sleeps for args[0] seconds once it is sure to die with its parent,
// perf, the child of the server whose pid is args[1].
func run(args []string) error {
	if len(args) != 2 {
		return fmt.Errorf("want seconds and the server's pid, got %q", args)
	}
	secs, err := strconv.Atoi(args[0])
	if err != nil || secs < 0 {
		return fmt.Errorf("seconds %q: want a whole number", args[0])
	}
	server, err := strconv.Atoi(args[1])
	if err != nil || server < 1 {
		return fmt.Errorf("server pid %q: want a pid", args[1])
	}
	if err := unix.Prctl(unix.PR_SET_PDEATHSIG, uintptr(unix.SIGKILL), 0, 0, 0); err != nil {
		return fmt.Errorf("asking for the parent-death signal: %w", err)
	}
	// perf may have died between forking us and the prctl; we would then
	// have been handed to a reaper, and no signal would come. Our parent
	// must still be perf, whose parent is the server.
	r, err := procs.New(kernelpath.Proc, 0) // perf and the server are ours: our own pid namespace
	if err != nil {
		return err
	}
	if grand, err := r.PPID(os.Getppid()); err != nil || grand != server {
		return fmt.Errorf("perf, started by pid %d, is gone", server)
	}
	time.Sleep(time.Duration(secs) * time.Second)
	return nil
}
