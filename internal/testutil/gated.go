package testutil

import (
	"bufio"
	"os/exec"
	"testing"
)

// GatedPython starts python3 running script with args, but holds the script
// until go is called. It returns only once the interpreter has started: its
// start-up opens and reads hundreds of files and can take over a second on a
// loaded machine, which would otherwise land inside a short trace window. The
// process is killed, by pid, when the test ends.
func GatedPython(t testing.TB, script string, args ...string) (cmd *exec.Cmd, start func()) {
	t.Helper()
	py := RequireBinary(t, "python3")
	gate := "import sys\nprint('ready', flush=True)\nsys.stdin.readline()\n"
	cmd = exec.Command(py, append([]string{"-c", gate + script}, args...)...)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	if _, err := bufio.NewReader(stdout).ReadString('\n'); err != nil {
		t.Fatalf("python3 never started: %v", err)
	}
	return cmd, func() { _, _ = stdin.Write([]byte("go\n")) }
}
