package config

import (
	"fmt"
	"time"
)

// BpftraceConf bounds the bpftrace toolset's runs (spec 001).
type BpftraceConf struct {
	// DefaultTimeout and MaxTimeout bound one program's run; a run that
	// outlives its timeout is stopped and keeps its partial output.
	DefaultTimeout Duration `toml:"default_timeout"`
	MaxTimeout     Duration `toml:"max_timeout"`
	// MaxConcurrent is how many programs may run at once.
	MaxConcurrent int `toml:"max_concurrent"`
	// MaxLines is how many output lines one run keeps; later ones are
	// counted as dropped.
	MaxLines int `toml:"max_lines"`
	// Retention is how long a finished run's output stays readable.
	Retention Duration `toml:"retention"`
	// AllowUnsafeBuiltins lets programs call system(), signal() and
	// override(). bpftrace's --unsafe mode is never passed, so they still
	// cannot run; the setting only stops hostmcp refusing them first.
	AllowUnsafeBuiltins bool `toml:"allow_unsafe_builtins"`
	// AllowCat lets programs call cat(), which prints any file with
	// bpftrace's rights (root's): off, a program could read what the roots
	// keep the file tools from.
	AllowCat bool `toml:"allow_cat"`
	// AllowShellUprobes lets uprobes, uretprobes and USDT probes attach to
	// a shell (a file named in /etc/shells or a known shell name, the same
	// inode however it is spelled): a uretprobe on readline records what
	// users type.
	AllowShellUprobes bool `toml:"allow_shell_uprobes"`
	// AllowLibraryUprobes lets them attach to a shared library: a library
	// such as libc runs inside every process, the shells and the password
	// prompts included.
	AllowLibraryUprobes bool `toml:"allow_library_uprobes"`
	// AllowOthersUprobes lets them attach to a program owned by a user
	// other than root and the server's own, or one that is setuid or
	// setgid (it runs for whoever starts it: sudo, passwd).
	AllowOthersUprobes bool `toml:"allow_others_uprobes"`
}

// DefaultBpftrace is spec 001's defaults: 10 s runs, at most 60 s, five at
// once, 10,000 lines each.
func DefaultBpftrace() BpftraceConf {
	return BpftraceConf{
		DefaultTimeout: Duration{10 * time.Second},
		MaxTimeout:     Duration{60 * time.Second},
		MaxConcurrent:  5,
		MaxLines:       10000,
		Retention:      Duration{10 * time.Minute},
	}
}

func (c *Config) validateBpftrace() []error {
	var errs []error
	b := c.Bpftrace
	checkPositive(&errs, "bpftrace.default_timeout", b.DefaultTimeout.Duration)
	checkPositive(&errs, "bpftrace.max_timeout", b.MaxTimeout.Duration)
	checkPositive(&errs, "bpftrace.retention", b.Retention.Duration)
	if b.DefaultTimeout.Duration > b.MaxTimeout.Duration {
		errs = append(errs, fmt.Errorf("bpftrace.default_timeout %s: more than bpftrace.max_timeout %s", b.DefaultTimeout, b.MaxTimeout))
	}
	if b.MaxTimeout.Duration > 10*time.Minute {
		errs = append(errs, fmt.Errorf("bpftrace.max_timeout %s: at most 10m", b.MaxTimeout))
	}
	checkRange(&errs, "bpftrace.max_concurrent", b.MaxConcurrent, 1, 64)
	checkRange(&errs, "bpftrace.max_lines", b.MaxLines, 100, 1_000_000)
	return errs
}
