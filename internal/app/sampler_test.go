package app

import (
	"context"
	"os"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

// The sampler behind sys_snapshot and /metrics starts on the first call,
// and Close ends it: a closed server leaves no goroutine reading the host.
func TestCloseEndsTheSampler(t *testing.T) {
	cfg := config.Default(t.TempDir(), os.Getuid(), func(string) string { return "" })
	cfg.StateDir = t.TempDir()
	a, err := Open(context.Background(), cfg, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.sampler.Running() {
		t.Fatal("the sampler runs before any call")
	}
	res, err := a.Server.Call(context.Background(), "sys_snapshot", []byte(`{}`))
	if err != nil || res.Err != nil {
		t.Fatalf("sys_snapshot: %v %s", err, res.JSON)
	}
	if !a.sampler.Running() {
		t.Fatal("sys_snapshot did not start the sampler")
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if a.sampler.Running() {
		t.Error("the sampler still runs after Close")
	}
}
