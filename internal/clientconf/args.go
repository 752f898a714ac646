package clientconf

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
)

// ServeArgs are the arguments after the binary that start the server the
// snippet describes: "serve" and the settings given to client-config, each
// path made absolute, since a client starts its servers from a directory
// of its own choosing and without this shell's environment. Without --root
// or a configuration file the working directory, serve's default root, is
// named explicitly for the same reason. The settings are loaded and
// validated first, so a mistake shows now rather than in the client.
func ServeArgs(f config.Flags, env func(string) string, cwd string) ([]string, error) {
	if _, err := config.Load(f, env, cwd); err != nil {
		return nil, err
	}
	args := []string{"serve"}
	path := f.ConfigPath
	if path == "" {
		path = env(config.EnvConfig)
	}
	if path != "" {
		args = append(args, "--config", abs(path, cwd))
	}
	for _, r := range f.Roots {
		p, mode := r, ""
		for _, suffix := range []string{":ro", ":rw"} {
			if s, ok := strings.CutSuffix(r, suffix); ok {
				p, mode = s, suffix
			}
		}
		args = append(args, "--root", abs(p, cwd)+mode)
	}
	if len(f.Roots) == 0 && path == "" {
		args = append(args, "--root", cwd)
	}
	if f.Toolsets != "" {
		args = append(args, "--toolsets", f.Toolsets)
	}
	if f.ReadOnly != nil {
		args = append(args, fmt.Sprintf("--read-only=%t", *f.ReadOnly))
	}
	if f.StateDir != "" {
		args = append(args, "--state-dir", abs(f.StateDir, cwd))
	}
	if f.LogLevel != "" {
		args = append(args, "--log-level", f.LogLevel)
	}
	return args, nil
}

func abs(p, cwd string) string {
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(cwd, p)
}
