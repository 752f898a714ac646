package config

import (
	"fmt"
	"strings"
)

// Bounds of the [repl] settings: enough for real work, small enough that a
// typo cannot let sessions exhaust the host's memory or processes.
const (
	maxReplSessions = 1024
	minReplBuffer   = 4 << 10
	maxReplBuffer   = 64 << 20
)

func (c *Config) validateRepl() []error {
	var errs []error
	r := &c.Repl
	for i, p := range r.Programs {
		if p == "" || p == "." || p == ".." || strings.ContainsAny(p, "/\x00 ") {
			errs = append(errs, fmt.Errorf("repl.programs[%d] %q: want a bare program name like \"python3\"; "+
				"it is looked up in the safe PATH and exec.extra_path", i, p))
		}
	}
	checkRange(&errs, "repl.max_sessions", r.MaxSessions, 1, maxReplSessions)
	checkRange(&errs, "repl.max_sessions_per_client", r.MaxSessionsPerClient, 1, max(r.MaxSessions, 1))
	checkPositive(&errs, "repl.idle_timeout", r.IdleTimeout.Duration)
	checkPositive(&errs, "repl.max_lifetime", r.MaxLifetime.Duration)
	checkPositive(&errs, "repl.retention", r.Retention.Duration)
	checkRange(&errs, "repl.buffer_bytes", r.BufferBytes, minReplBuffer, maxReplBuffer)
	return errs
}
