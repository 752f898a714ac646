package bpfprog

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// ErrNotSupported is what every reason eBPF cannot run here wraps, as
// cilium/ebpf's own ErrNotSupported: callers test errors.Is and offer what
// works without eBPF, whatever the reason.
var ErrNotSupported = errors.New("eBPF tracing is not supported here")

// notSupported is one reason, read by a person; errors.Is finds
// ErrNotSupported through it.
type notSupported struct{ reason string }

func (e *notSupported) Error() string        { return e.reason }
func (e *notSupported) Is(target error) bool { return target == ErrNotSupported }

// supported is probed once: the kernel's BTF, this process's capabilities
// and the tracefs mount do not change under a running server (MountTracefs
// runs at start-up, before any call).
var supported = sync.OnceValue(probe)

// Supported says why eBPF cannot run here (an error wrapping
// ErrNotSupported), or nil. It changes nothing on the host: it needs the
// kernel's BTF (for CO-RE), the privilege to load programs (CAP_BPF and
// CAP_PERFMON, or CAP_SYS_ADMIN) and a mounted tracefs, where tracepoints
// are looked up.
func Supported() error { return supported() }

func probe() error {
	if _, err := os.Stat(kernelpath.BTF); err != nil {
		return &notSupported{"the kernel has no BTF (" + kernelpath.BTF + "): CO-RE programs cannot be relocated"}
	}
	if !mayLoad() {
		return &notSupported{"loading eBPF programs needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN"}
	}
	mounted, err := tracefsMounted()
	if err != nil {
		return &notSupported{fmt.Sprintf("cannot tell whether tracefs is mounted: %v", err)}
	}
	if !mounted {
		return &notSupported{"tracefs is not mounted, so tracepoints cannot be found (hostmcp mounts it at " + kernelpath.Tracefs + " at start-up when it may)"}
	}
	return nil
}

// MountTracefs mounts tracefs at its standard place when no tracefs is
// mounted and this process may load eBPF programs: systemd does that on
// every ordinary boot, and some VMs and containers skip it, which makes
// every tracepoint look absent. It runs once, at start-up, and reports
// whether it mounted, so the server can say so in its log; it is never
// done inside a check.
func MountTracefs() (mounted bool, err error) {
	if !mayLoad() {
		return false, nil // no tracing here anyway: Supported says why
	}
	if ok, err := tracefsMounted(); err != nil || ok {
		return false, err
	}
	if err := unix.Mount("nodev", kernelpath.Tracefs, "tracefs", 0, ""); err != nil {
		return false, fmt.Errorf("tracefs is not mounted and mounting it at %s failed: %w", kernelpath.Tracefs, err)
	}
	return true, nil
}

// tracefsMounted reports whether a tracefs is mounted anywhere this
// process sees (its own mount namespace).
func tracefsMounted() (bool, error) {
	mounts, err := os.ReadFile(kernelpath.SelfMounts)
	if err != nil {
		return false, err
	}
	for _, line := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[2] == "tracefs" {
			return true, nil
		}
	}
	return false, nil
}
