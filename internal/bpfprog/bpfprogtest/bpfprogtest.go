// Package bpfprogtest holds what live tests of eBPF tools share; it is apart
// from internal/testutil, which internal/bpfprog's own tests import.
package bpfprogtest

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// Require needs eBPF tracing: BTF, the capabilities to load programs,
// and tracefs, which it mounts as the server does at start-up when none is
// mounted (and leaves mounted, as a boot would have: other test binaries
// running beside this one may be tracing through it).
func Require(t testing.TB) {
	t.Helper()
	testutil.Live(t)
	if _, err := bpfprog.MountTracefs(); err != nil {
		testutil.Missing(t, "%v", err)
	}
	if err := bpfprog.Supported(); err != nil {
		testutil.Missing(t, "%v", err)
	}
}
