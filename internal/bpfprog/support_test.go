package bpfprog

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
)

// Every reason eBPF cannot run here is an ErrNotSupported, however it is
// wrapped, so callers offer what works without eBPF on any of them.
func TestReasonsAreNotSupported(t *testing.T) {
	for _, err := range []error{&notSupported{"no BTF"}, fmt.Errorf("perf_io_layers: %w", &notSupported{"no CAP_BPF"})} {
		if !errors.Is(err, ErrNotSupported) {
			t.Errorf("%v is not ErrNotSupported", err)
		}
	}
	if err := Supported(); err != nil && !errors.Is(err, ErrNotSupported) {
		t.Errorf("this host's reason is untyped: %v", err)
	}
}

// Checking changes nothing: Supported never mounts, and MountTracefs
// mounts nothing where a tracefs is already mounted.
func TestCheckingMountsNothing(t *testing.T) {
	count := func() int {
		b, err := os.ReadFile("/proc/self/mounts")
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), " tracefs ")
	}
	before := count()
	_ = Supported()
	if got := count(); got != before {
		t.Fatalf("Supported changed the tracefs mounts: %d, then %d", before, got)
	}
	if before == 0 {
		return // MountTracefs would mount: that is its job, not a check's
	}
	if mounted, err := MountTracefs(); mounted || err != nil || count() != before {
		t.Fatalf("MountTracefs with tracefs mounted: mounted %v, %v; %d mounts, was %d", mounted, err, count(), before)
	}
}
