package testutil

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// loadLockPath is shared by every test binary of the module: `go test ./...`
// runs packages' test binaries side by side, so an in-process mutex cannot
// keep one package's busy loops out of another's measurements.
var loadLockPath = filepath.Join(os.TempDir(), "hostmcp-test-load.lock")

// ExclusiveLoad holds a machine-wide lock for the rest of the test. Live
// tests that put load on the host (busy loops, direct I/O, packet loss,
// profiles) and tests whose verdict depends on the host being otherwise
// quiet take it, so that packages tested in parallel do not disturb each
// other's verdicts. Tests that merely read the host do not need it. It
// blocks until the lock is free; the lock is released at cleanup, and by
// the kernel if the test binary dies.
func ExclusiveLoad(t testing.TB) {
	t.Helper()
	Live(t)
	f, err := os.OpenFile(loadLockPath, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		t.Fatalf("opening the load lock: %v", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		t.Fatalf("taking the load lock: %v", err)
	}
	t.Cleanup(func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	})
}
