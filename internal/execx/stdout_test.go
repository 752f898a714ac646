package execx

import (
	"context"
	"strconv"
	"testing"
	"time"
)

// TestSlowReaderDoesNotStallTheChild: a child's output up to the stdout
// pipe's size waits in the pipe while the line callback is busy, so the
// child writes it all and exits meanwhile. With the kernel's default 64
// KiB pipe it blocked on the second write until the callback returned: rg
// stalled so behind a search checking each name it listed.
func TestSlowReaderDoesNotStallTheChild(t *testing.T) {
	const total = stdoutPipeSize / 2
	r, name := newHelperRunner(t, 0)
	release := make(chan struct{})
	cmd := helperCmd(name, "flood", strconv.Itoa(total))
	cmd.OnStdoutLine = func([]byte) { <-release }
	p, err := r.Start(context.Background(), cmd)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	select {
	case <-p.exitedCh:
	case <-time.After(time.Minute):
		t.Errorf("the child did not exit while its reader was busy: it is blocked writing %d bytes", total)
	}
	close(release)
	res, err := p.Wait()
	if err != nil || res.ExitCode != 0 || res.StdoutBytes != total {
		t.Errorf("Wait = exit %d, %d bytes, %v; want exit 0, %d bytes, no error", res.ExitCode, res.StdoutBytes, err, total)
	}
}

// TestStdoutPipeWideOnlyForLines: the child whose lines a callback takes
// gets a stdout pipe of stdoutPipeSize; any other keeps the kernel's
// default, which counts less against the user's pipe pages.
func TestStdoutPipeWideOnlyForLines(t *testing.T) {
	r, name := newHelperRunner(t, 0)
	size := func(lines bool) int {
		cmd := helperCmd(name, "pipesize")
		if lines {
			cmd.OnStdoutLine = func([]byte) {}
		}
		res, err := r.Run(context.Background(), cmd)
		if err != nil || res.ExitCode != 0 {
			t.Fatalf("Run = exit %d, %v: %s", res.ExitCode, err, res.Stderr)
		}
		n, err := strconv.Atoi(string(res.Stdout))
		if err != nil {
			t.Fatalf("pipe size %q: %v", res.Stdout, err)
		}
		return n
	}
	wide, plain := size(true), size(false)
	if wide != stdoutPipeSize || plain >= wide {
		t.Errorf("stdout pipe of %d bytes with a line callback, %d without; want %d and less", wide, plain, stdoutPipeSize)
	}
}
