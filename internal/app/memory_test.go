package app

import (
	"context"
	"log/slog"
	"os"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

// Calls made while, and after, start-up's memory is given back (each input
// schema built at its tool's first call) are validated and run as before.
func TestCallsAfterReturnStartupMemory(t *testing.T) {
	cfg := config.Default(t.TempDir(), os.Getuid(), func(string) string { return "" })
	cfg.StateDir = t.TempDir()
	a, err := Open(context.Background(), cfg, "test", slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	gc := debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	a.ReturnStartupMemory(gc)
	for range 20 {
		res, err := a.Server.Call(context.Background(), "fs_list", []byte(`{"no_such_argument":1}`))
		if err != nil {
			t.Fatal(err)
		}
		if res.Err == nil || !strings.Contains(res.Err.Message, "unknown argument no_such_argument") {
			t.Fatalf("an unknown argument got %v", res.Err)
		}
		res, err = a.Server.Call(context.Background(), "fs_list", []byte(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		if res.Err != nil {
			t.Fatalf("fs_list: %v", res.Err)
		}
	}
}
