package bench

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
)

// crowdTarget is how many processes the machine holds while proc_list and
// ps are measured: the issue asks for at least 1000.
const crowdTarget = 1000

// crowd tops the machine up to crowdTarget processes with sleepers, killed
// by pid when the benchmark ends.
func crowd(b *testing.B) {
	b.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		b.Fatal(err)
	}
	have := 0
	for _, e := range ents {
		if _, err := strconv.Atoi(e.Name()); err == nil {
			have++
		}
	}
	var started []*exec.Cmd
	b.Cleanup(func() {
		for _, c := range started {
			_ = c.Process.Signal(syscall.SIGKILL)
			_ = c.Wait()
		}
	})
	for range crowdTarget - have + 10 {
		c := exec.Command("sleep", "3600")
		if err := c.Start(); err != nil {
			b.Fatal(err)
		}
		started = append(started, c)
	}
}

// BenchmarkProcListStdio is proc_list (top 100 by CPU, the default) through
// a stdio client on a machine with at least 1000 processes.
func BenchmarkProcListStdio(b *testing.B) {
	crowd(b)
	cs, _ := connect(b)
	callTool(b, cs, "proc_list", map[string]any{}) // the first call samples a CPU window; later ones use the previous
	loopLatency(b, func() { callTool(b, cs, "proc_list", map[string]any{}) })
}

// BenchmarkPsDirect is the baseline: the ps an SRE would type, run directly
// with its whole output read.
func BenchmarkPsDirect(b *testing.B) {
	crowd(b)
	loopLatency(b, func() {
		if _, err := exec.Command("ps", "-eo", "pid,user,%cpu,%mem,command", "--sort=-%cpu").Output(); err != nil {
			b.Fatal(err)
		}
	})
}
