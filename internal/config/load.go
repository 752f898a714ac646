package config

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Flags are the command-line settings; zero values are unset.
type Flags struct {
	ConfigPath string
	Roots      []string // "PATH" or "PATH:ro", repeatable
	Toolsets   string   // comma-separated
	ReadOnly   *bool
	StateDir   string
	HTTPAddr   string
	TokenFile  string
	LogLevel   string
}

// Load builds the configuration: defaults, then the file named by
// flags.ConfigPath or HOSTMCP_CONFIG (there is no implicit file, so what
// runs is what was asked for), then the environment, then the flags. Paths
// in the file are relative to its directory; paths from the environment and
// flags are relative to cwd. The result is validated.
func Load(flags Flags, env func(string) string, cwd string) (*Config, error) {
	if env == nil {
		env = func(string) string { return "" }
	}
	c := Default(cwd, os.Getuid(), env)
	path := flags.ConfigPath
	if path == "" {
		path = env("HOSTMCP_CONFIG")
	}
	if path != "" {
		if err := c.loadFile(path, cwd); err != nil {
			return nil, err
		}
	}
	if err := c.applyEnv(env, cwd); err != nil {
		return nil, err
	}
	if err := c.applyFlags(&flags, cwd); err != nil {
		return nil, err
	}
	c.normalize()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("invalid configuration:\n%w", err)
	}
	return c, nil
}

// loadFile overlays the TOML file at path (relative to cwd) on c.
func (c *Config) loadFile(path, cwd string) error {
	abs := absPath(path, cwd)
	data, err := os.ReadFile(abs)
	if err != nil {
		return fmt.Errorf("reading the configuration file: %w", err)
	}
	if err := c.decode(path, data); err != nil {
		return err
	}
	c.resolvePaths(filepath.Dir(abs))
	return nil
}

// decode overlays the TOML document data on c; name labels errors. Lists in
// the document replace the defaults rather than extend them.
func (c *Config) decode(name string, data []byte) error {
	defaultRoots := c.Roots
	c.Roots = nil
	dec := toml.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(c)
	if c.Roots == nil {
		c.Roots = defaultRoots
	}
	if err == nil {
		return nil
	}
	var strict *toml.StrictMissingError
	if errors.As(err, &strict) {
		errs := make([]error, 0, len(strict.Errors))
		for i := range strict.Errors {
			errs = append(errs, unknownKeyError(name, &strict.Errors[i]))
		}
		return errors.Join(errs...)
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) > 0 {
			msg = fmt.Sprintf("%s: %s", strings.Join(k, "."), msg)
		}
		return fmt.Errorf("%s:%d:%d: %s", name, line, col, msg)
	}
	return fmt.Errorf("%s: %w", name, err)
}

// unknownKeyError names an unknown key, its line, and the likely intended
// key when there is one.
func unknownKeyError(name string, de *toml.DecodeError) error {
	line, _ := de.Position()
	key := []string(de.Key())
	msg := fmt.Sprintf("%s:%d: unknown key %q", name, line, strings.Join(key, "."))
	if s := suggest(key); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	return errors.New(msg)
}

// resolvePaths makes the path settings absolute against base. Defaults are
// already absolute, so only what the file set changes.
func (c *Config) resolvePaths(base string) {
	c.StateDir = absPath(c.StateDir, base)
	c.HTTP.TokenFile = absPath(c.HTTP.TokenFile, base)
	for i := range c.Roots {
		c.Roots[i].Path = absPath(c.Roots[i].Path, base)
	}
	for i, p := range c.Exec.ExtraPath {
		c.Exec.ExtraPath[i] = absPath(p, base)
	}
}

// absPath joins a relative p to base; empty stays empty, so Validate can
// say it is missing.
func absPath(p, base string) string {
	if p == "" || filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(base, p)
}
