// Package testutil holds what live tests share: probes for what a test needs
// from the host, which skip with the reason, or fail when CI demands that
// every live test runs (HOSTMCP_REQUIRE_PRIVILEGED=1). Under `go test
// -short` every probe of root, kernel features, mounts or load skips: the
// short run is the fast loop of unit, fixture and end-to-end tests that
// need none of them.
package testutil

import (
	"os"
	"os/exec"
	"testing"
)

// Required reports whether missing capabilities must fail tests rather than
// skip them: CI sets HOSTMCP_REQUIRE_PRIVILEGED=1 on machines that have them.
func Required() bool { return os.Getenv("HOSTMCP_REQUIRE_PRIVILEGED") == "1" }

// Missing skips the test with the reason, or fails it when Required.
func Missing(t testing.TB, format string, args ...any) {
	t.Helper()
	if Required() {
		t.Fatalf("HOSTMCP_REQUIRE_PRIVILEGED=1 but "+format, args...)
	}
	t.Skipf(format, args...)
}

// Live marks a test that needs root, a kernel feature, a mount or load
// generation: `go test -short` skips it, even where CI demands live tests,
// since -short asks for the fast loop rather than the full run.
func Live(t testing.TB) {
	t.Helper()
	if testing.Short() {
		t.Skip("a live test: -short runs only tests that need no root, kernel feature or load")
	}
}

// RequireRoot needs effective uid 0.
func RequireRoot(t testing.TB) {
	t.Helper()
	Live(t)
	if os.Geteuid() != 0 {
		Missing(t, "this test needs root")
	}
}

// RequireBinary needs a program on PATH and returns its path.
func RequireBinary(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, "this test needs %s installed (scripts/deps.sh installs it)", name)
	}
	return p
}

// RequireBTF needs kernel BTF, for CO-RE eBPF programs.
func RequireBTF(t testing.TB) {
	t.Helper()
	Live(t)
	if _, err := os.Stat("/sys/kernel/btf/vmlinux"); err != nil {
		Missing(t, "this test needs kernel BTF (/sys/kernel/btf/vmlinux)")
	}
}

// RequireFile needs a path to exist, such as /proc/pressure/cpu.
func RequireFile(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(t, "this test needs %s", path)
	}
}
