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

// DefaultHost reads the kernel interfaces where the kernel mounts them.
func DefaultHost() HostConf { return HostConf{Proc: "/proc", Sys: "/sys"} }

// validateHost wants absolute, clean paths: a relative one would follow the
// working directory, and an unclean one ("/host/proc/..") would make the
// path an operator reads in the config differ from the one read.
func (c *Config) validateHost() []error {
	var errs []error
	for _, s := range []struct{ key, path, mount string }{
		{"host.proc", c.Host.Proc, "/proc"}, {"host.sys", c.Host.Sys, "/sys"},
	} {
		if !filepath.IsAbs(s.path) || filepath.Clean(s.path) != s.path {
			errs = append(errs, fmt.Errorf("%s %q: must be an absolute, clean path: where the host's %s is mounted, such as %q",
				s.key, s.path, s.mount, "/host"+s.mount))
		}
	}
	return errs
}
