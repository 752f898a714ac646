// Package system is the system toolset of spec 002: a compact snapshot of
// the host's health, its services (systemd over D-Bus) and its logs (the
// journal, allowlisted log files, or the kernel's log).
package system

import (
	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/sampler"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the system tools read the host through.
type Deps struct {
	Host *hostinfo.Host
	// Sampler gives sys_snapshot its CPU window from recent readings; nil
	// makes each call sample 100 ms itself.
	Sampler *sampler.Sampler
	// Exec runs journalctl for sys_logs; nil leaves only log files and the
	// kernel log.
	Exec *execx.Runner
	// LogFiles are the files sys_logs may read when there is no journal
	// ([process] log_files).
	LogFiles []string
}

// Set is the system toolset.
type Set struct {
	deps Deps
	// dial reaches systemd; tests replace it with a fake bus.
	dial busDialer
	// systemdDir exists when systemd is the service manager (sd_booted).
	systemdDir string
	// journalDirs are where journal files live; with none there, sys_logs
	// reads the log files.
	journalDirs []string
	// journalDir, when set, is the only journal directory read (journalctl
	// --directory), such as a container's or a copied machine's journal;
	// empty reads the system journal.
	journalDir string
	// kmsgPath is the kernel log device sys_logs reads with source kernel.
	kmsgPath string
}

// New builds the system toolset.
func New(d *Deps) *Set {
	return &Set{
		deps:        *d,
		dial:        dialSystemd,
		systemdDir:  "/run/systemd/system",
		journalDirs: []string{"/var/log/journal", "/run/log/journal"},
		kmsgPath:    "/dev/kmsg",
	}
}

// Toolset lists the system tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "system",
		Description:    "A compact health snapshot of the host (CPU, load, memory, disks), its services and, when enabled, its logs.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.snapshot(), s.services(), s.logs()},
	}
}
