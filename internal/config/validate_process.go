package config

import (
	"fmt"
	"path/filepath"
)

// maxLogFiles bounds process.log_files: sys_logs lists them in its answer.
const maxLogFiles = 64

func (c *Config) validateProcess() []error {
	var errs []error
	files := c.Process.LogFiles
	if len(files) > maxLogFiles {
		errs = append(errs, fmt.Errorf("process.log_files: %d entries; at most %d", len(files), maxLogFiles))
	}
	seen := map[string]bool{}
	for i, p := range files {
		switch {
		case !filepath.IsAbs(p):
			errs = append(errs, fmt.Errorf("process.log_files[%d] %q: must be an absolute file path like \"/var/log/syslog\"", i, p))
		case filepath.Clean(p) != p:
			errs = append(errs, fmt.Errorf("process.log_files[%d] %q: not clean; write it as %q", i, p, filepath.Clean(p)))
		case seen[p]:
			errs = append(errs, fmt.Errorf("process.log_files[%d] %q: listed twice", i, p))
		}
		seen[p] = true
	}
	return errs
}
