package config

import (
	"errors"
	"fmt"
	"strings"
)

// Environment variables read by Load. The token itself (HOSTMCP_TOKEN) is
// read only by Token, so it never sits in a Config that may be logged.
const (
	EnvConfig        = "HOSTMCP_CONFIG"
	EnvRoots         = "HOSTMCP_ROOTS"          // ':'-separated read-write roots
	EnvReadOnlyRoots = "HOSTMCP_READONLY_ROOTS" // ':'-separated read-only roots
	EnvToolsets      = "HOSTMCP_TOOLSETS"       // comma-separated
	EnvReadOnly      = "HOSTMCP_READ_ONLY"      // 1/true/0/false
	EnvStateDir      = "HOSTMCP_STATE_DIR"
	EnvHTTPAddr      = "HOSTMCP_HTTP_ADDR"
	EnvTokenFile     = "HOSTMCP_TOKEN_FILE"
	EnvToken         = "HOSTMCP_TOKEN"
	EnvLogLevel      = "HOSTMCP_LOG_LEVEL"
)

// applyEnv overlays the environment. An empty variable counts as unset.
// Roots from the environment replace the file's rather than add to them,
// as every other layered setting does.
func (c *Config) applyEnv(env func(string) string, cwd string) error {
	var roots []Root
	for _, p := range splitList(env(EnvRoots), ":") {
		roots = append(roots, Root{Path: absPath(p, cwd)})
	}
	for _, p := range splitList(env(EnvReadOnlyRoots), ":") {
		roots = append(roots, Root{Path: absPath(p, cwd), ReadOnly: true})
	}
	if roots != nil {
		c.Roots = roots
	}
	if v := env(EnvToolsets); v != "" {
		c.Toolsets.Enabled = splitList(v, ",")
	}
	if v := env(EnvReadOnly); v != "" {
		b, err := parseBool(v)
		if err != nil {
			return fmt.Errorf("%s=%q: %w", EnvReadOnly, v, err)
		}
		c.Toolsets.ReadOnly = b
	}
	if v := env(EnvStateDir); v != "" {
		c.StateDir = absPath(v, cwd)
	}
	if v := env(EnvHTTPAddr); v != "" {
		c.HTTP.Addr = v
	}
	if v := env(EnvTokenFile); v != "" {
		c.HTTP.TokenFile = absPath(v, cwd)
	}
	if v := env(EnvLogLevel); v != "" {
		c.Log.Level = v
	}
	return nil
}

// applyFlags overlays the command line, the last word.
func (c *Config) applyFlags(f *Flags, cwd string) error {
	if len(f.Roots) > 0 {
		c.Roots = nil
		for _, v := range f.Roots {
			r, err := parseRootFlag(v)
			if err != nil {
				return err
			}
			r.Path = absPath(r.Path, cwd)
			c.Roots = append(c.Roots, r)
		}
	}
	if f.Toolsets != "" {
		c.Toolsets.Enabled = splitList(f.Toolsets, ",")
	}
	if f.ReadOnly != nil {
		c.Toolsets.ReadOnly = *f.ReadOnly
	}
	if f.StateDir != "" {
		c.StateDir = absPath(f.StateDir, cwd)
	}
	if f.HTTPAddr != "" {
		c.HTTP.Addr = f.HTTPAddr
	}
	if f.TokenFile != "" {
		c.HTTP.TokenFile = absPath(f.TokenFile, cwd)
	}
	if f.LogLevel != "" {
		c.Log.Level = f.LogLevel
	}
	return nil
}

// parseRootFlag reads --root PATH, PATH:ro or PATH:rw. Only those exact
// suffixes are modes, so a path with a colon elsewhere stays whole.
func parseRootFlag(v string) (Root, error) {
	r := Root{Path: v}
	if p, ok := strings.CutSuffix(v, ":ro"); ok {
		r = Root{Path: p, ReadOnly: true}
	} else if p, ok := strings.CutSuffix(v, ":rw"); ok {
		r = Root{Path: p}
	}
	if r.Path == "" {
		return Root{}, fmt.Errorf("--root %q: want a directory, optionally followed by :ro (read-only) or :rw", v)
	}
	return r, nil
}

// splitList splits on sep, trims spaces and drops empty items.
func splitList(s, sep string) []string {
	var out []string
	for item := range strings.SplitSeq(s, sep) {
		if item = strings.TrimSpace(item); item != "" {
			out = append(out, item)
		}
	}
	return out
}

// parseBool accepts the spellings an operator is likely to type.
func parseBool(v string) (bool, error) {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "1", "true", "yes", "on":
		return true, nil
	case "0", "false", "no", "off":
		return false, nil
	}
	return false, errors.New("want 1, true, 0 or false")
}
