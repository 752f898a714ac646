package testutil

import (
	"net"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// StartPrometheus runs the prometheus binary bin with the configuration
// file cfg and its storage in data, on a free loopback port, until it is
// ready; it returns its base URL. Its output goes to the test log, and the
// test kills it (by its pid, the process it started) when it ends. The
// fleet tests (test/e2e and the fleet toolset's) share it.
func StartPrometheus(t testing.TB, bin, cfg, data string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(bin, "--config.file="+cfg, "--storage.tsdb.path="+data, "--web.listen-address="+addr, "--log.level=warn")
	cmd.Stdout, cmd.Stderr = logWriter{t, "prometheus"}, logWriter{t, "prometheus"}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill() // only the process this test started
		<-done
	})
	base := "http://" + addr
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case err := <-done:
			t.Fatalf("prometheus exited: %v", err)
		default:
		}
		if resp, err := http.Get(base + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == 200 {
				return base
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("prometheus not ready after 30 s")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// logWriter logs a program's output to the test.
type logWriter struct {
	t    testing.TB
	name string
}

func (w logWriter) Write(p []byte) (int, error) {
	w.t.Logf("%s: %s", w.name, strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
