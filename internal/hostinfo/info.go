package hostinfo

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// Info is what perf_info reports (spec 000 section 3.2): what the host is and
// what it lets us measure.
type Info struct {
	System         System         `json:"system"`
	CPU            CPU            `json:"cpu"`
	Memory         Memory         `json:"memory"`
	Virtualization Virtualization `json:"virtualization"`
	Capabilities   Capabilities   `json:"capabilities"`
	// Warnings say which optional sources were missing or unreadable, and so
	// which fields hold zero values instead of facts.
	Warnings []string `json:"warnings,omitempty"`
}

// System identifies the kernel and how long it has been running.
type System struct {
	Hostname      string  `json:"hostname"`
	Kernel        string  `json:"kernel"`         // release, as uname -r
	KernelVersion string  `json:"kernel_version"` // build string, as uname -v
	Arch          string  `json:"arch"`           // machine, as uname -m
	UptimeSeconds float64 `json:"uptime_seconds"`
	BootTime      string  `json:"boot_time"` // RFC 3339, UTC
}

// InfoOptions are the inputs of Info that do not come from the filesystem.
type InfoOptions struct {
	// HasBinary reports whether a program (perf, bpftrace, bpftool) can be run.
	// It is passed in so that this package never searches PATH or executes
	// anything; nil means none is found.
	HasBinary func(name string) bool
}

// Info reads the host's identity and capabilities. Missing or unreadable
// optional files leave zero values and add a warning; only a cancelled ctx fails.
func (h *Host) Info(ctx context.Context, opts *InfoOptions) (Info, error) {
	if err := ctx.Err(); err != nil {
		return Info{}, err
	}
	hasBinary := func(string) bool { return false }
	if opts != nil && opts.HasBinary != nil {
		hasBinary = opts.HasBinary
	}
	var w warnings
	var info Info

	mounts, err := h.mountInfo(h.procPath("self", "mountinfo"))
	if err != nil {
		w.add("mounts unknown (cgroup version, tracefs): %v", err)
	}
	ci := h.cpuInfo(&w)

	info.System = h.system(&w)
	info.CPU = h.cpu(ci, &w)
	info.Memory = h.memory(&w)
	info.Virtualization = h.virtualization(ci, mounts, &w)
	info.Capabilities = h.capabilities(mounts, hasBinary, &w)
	info.Warnings = w
	return info, ctx.Err()
}

func (h *Host) system(w *warnings) System {
	var s System
	var err error
	if s.Hostname, err = readTrimmed(h.procPath("sys", "kernel", "hostname")); err != nil {
		w.add("hostname unknown: %v", err)
	}
	if s.Kernel, err = readTrimmed(h.procPath("sys", "kernel", "osrelease")); err != nil {
		w.add("kernel release unknown: %v", err)
	}
	if s.KernelVersion, err = readTrimmed(h.procPath("sys", "kernel", "version")); err != nil {
		w.add("kernel version unknown: %v", err)
	}
	// /proc/sys/kernel/arch exists since Linux 6.1; before that the kernel's
	// machine name is what our own binary was built for.
	if s.Arch, err = readTrimmed(h.procPath("sys", "kernel", "arch")); err != nil || s.Arch == "" {
		s.Arch = unameMachine(runtime.GOARCH)
	}
	if b, err := os.ReadFile(h.procPath("uptime")); err != nil {
		w.add("uptime unknown: %v", err)
	} else if s.UptimeSeconds, err = parseUptime(b); err != nil {
		w.add("uptime unknown: %v", err)
	}
	if b, err := os.ReadFile(h.procPath("stat")); err != nil {
		w.add("boot time unknown: %v", err)
	} else if st, err := parseStat(b); err != nil || st.BootTime == 0 {
		w.add("boot time unknown: no btime in /proc/stat")
	} else {
		s.BootTime = time.Unix(st.BootTime, 0).UTC().Format(time.RFC3339)
	}
	return s
}

// unameMachine maps a GOARCH to the name uname -m prints for it.
func unameMachine(goarch string) string {
	switch goarch {
	case "amd64":
		return "x86_64"
	case "386":
		return "i686"
	case "arm64":
		return "aarch64"
	case "arm":
		return "armv7l"
	case "loong64":
		return "loongarch64"
	}
	return goarch
}

// readInt reads a pseudo file holding one integer, such as perf_event_paranoid.
func readInt(path string) (int, error) {
	s, err := readTrimmed(path)
	if err != nil {
		return 0, err
	}
	return strconv.Atoi(strings.TrimSpace(s))
}
