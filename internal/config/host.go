package config

import (
	"fmt"
	"path/filepath"
)

// HostConf says where the host's kernel interfaces are mounted, so hostmcp can
// diagnose the host from a container that mounts them elsewhere.
type HostConf struct {
	Proc string `toml:"proc"` // default "/proc"
	Sys  string `toml:"sys"`  // default "/sys"
}

// validateHost wants absolute, clean paths: readers join kernel file names
// under them, and a relative or unclean one would read whatever the
// working directory or the spelling leads to rather than a mount.
func (c *Config) validateHost() []error {
	var errs []error
	for _, s := range []struct{ key, path, example string }{
		{"host.proc", c.Host.Proc, "/host/proc"},
		{"host.sys", c.Host.Sys, "/host/sys"},
	} {
		if !filepath.IsAbs(s.path) || filepath.Clean(s.path) != s.path {
			errs = append(errs, fmt.Errorf("%s %q: must be an absolute, clean path such as %q", s.key, s.path, s.example))
		}
	}
	return errs
}
