package testutil

import (
	"os"
	"strconv"
	"strings"
	"testing"
)

const paranoidPath = "/proc/sys/kernel/perf_event_paranoid"

// PerfParanoid sets kernel.perf_event_paranoid to level for the rest of the
// test and puts back the value it found at cleanup. It holds ExclusiveLoad
// meanwhile, so no other live test of any package sees the changed setting
// (the sysctl is machine-wide, not per namespace). It needs root.
func PerfParanoid(t testing.TB, level int) {
	t.Helper()
	RequireRoot(t)
	RequireFile(t, paranoidPath)
	ExclusiveLoad(t)
	was := ReadParanoid(t)
	if was == level {
		return
	}
	write := func(v int) error { return os.WriteFile(paranoidPath, []byte(strconv.Itoa(v)+"\n"), 0o644) }
	if err := write(level); err != nil {
		t.Fatalf("setting perf_event_paranoid to %d: %v", level, err)
	}
	t.Cleanup(func() {
		if err := write(was); err != nil {
			t.Errorf("putting perf_event_paranoid back to %d: %v", was, err)
		}
	})
}

// ReadParanoid is kernel.perf_event_paranoid as the kernel holds it now.
func ReadParanoid(t testing.TB) int {
	t.Helper()
	b, err := os.ReadFile(paranoidPath)
	if err != nil {
		t.Fatalf("reading perf_event_paranoid: %v", err)
	}
	v, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("perf_event_paranoid %q: %v", b, err)
	}
	return v
}
