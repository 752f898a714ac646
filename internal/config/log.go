package config

import (
	"fmt"
	"log/slog"
	"strings"
)

// LogConf shapes the server's own log on stderr (the operator's, never the
// agent's).
type LogConf struct {
	// Level is debug, info, warn or error. Empty picks by transport: warn
	// on stdio, where clients such as Claude Code show every stderr line
	// as an error, and info over HTTP, where a service's log is read by its
	// operator and each request gets a line.
	Level string `toml:"level"`
}

// logLevel is the slog level a log.level names, case aside.
func logLevel(name string) (slog.Level, bool) {
	switch strings.ToLower(name) {
	case "debug":
		return slog.LevelDebug, true
	case "info":
		return slog.LevelInfo, true
	case "warn":
		return slog.LevelWarn, true
	case "error":
		return slog.LevelError, true
	}
	return 0, false
}

// SlogLevel is the level in force: log.level, or by transport when unset.
func (c *Config) SlogLevel() slog.Level {
	if l, ok := logLevel(c.Log.Level); ok {
		return l
	}
	if c.HTTP.Addr == "" {
		return slog.LevelWarn
	}
	return slog.LevelInfo
}

func (c *Config) validateLog() []error {
	if _, ok := logLevel(c.Log.Level); ok || c.Log.Level == "" {
		return nil
	}
	return []error{fmt.Errorf("log.level %q: want debug, info, warn or error (or unset: warn on stdio, info over HTTP)", c.Log.Level)}
}
