package config

import (
	"fmt"
	"maps"
	"os/user"
	"slices"
	"strconv"
	"strings"
)

// Bounds of the [repl] settings: enough for real work, small enough that a
// typo cannot let sessions exhaust the host's memory or processes.
const (
	maxReplSessions = 1024
	minReplBuffer   = 4 << 10
	maxReplBuffer   = 64 << 20
	maxReplArgs     = 64
	maxReplArgBytes = 256
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
	errs = append(errs, validateReplArgs(r.Args)...)
	if r.User != "" {
		if _, err := LookupUser(r.User); err != nil {
			errs = append(errs, fmt.Errorf("repl.user %q: %w; want a user name or numeric uid from this host's user database", r.User, err))
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

func validateReplArgs(args map[string][]string) []error {
	var errs []error
	for _, prog := range slices.Sorted(maps.Keys(args)) {
		key := "repl.args." + prog
		if prog == "" || prog == "." || prog == ".." || strings.ContainsAny(prog, "/\x00 ") {
			errs = append(errs, fmt.Errorf("%s: want a bare program name like \"python3\", as in repl.programs", key))
		}
		list := args[prog]
		if len(list) > maxReplArgs {
			errs = append(errs, fmt.Errorf("%s: %d entries; at most %d", key, len(list), maxReplArgs))
		}
		for i, a := range list {
			if a == "" || len(a) > maxReplArgBytes || strings.ContainsRune(a, 0) {
				errs = append(errs, fmt.Errorf("%s[%d] %q: want a non-empty argument of at most %d bytes without NUL, or %q",
					key, i, a, maxReplArgBytes, PathArg))
			}
		}
	}
	return errs
}

// LookupUser finds a user by name or numeric uid in the host's user
// database, the way repl.user names it.
func LookupUser(name string) (*user.User, error) {
	if _, err := strconv.ParseUint(name, 10, 32); err == nil {
		return user.LookupId(name)
	}
	return user.Lookup(name)
}
