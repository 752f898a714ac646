package config

import (
	"log/slog"
	"testing"
)

// Unset, the level follows the transport: warn on stdio, info over HTTP.
func TestSlogLevel(t *testing.T) {
	for _, tc := range []struct {
		level, addr string
		want        slog.Level
	}{
		{"", "", slog.LevelWarn},
		{"", "127.0.0.1:8765", slog.LevelInfo},
		{"debug", "", slog.LevelDebug},
		{"Error", "127.0.0.1:8765", slog.LevelError},
	} {
		c := &Config{Log: LogConf{Level: tc.level}, HTTP: HTTPConf{Addr: tc.addr}}
		if got := c.SlogLevel(); got != tc.want {
			t.Errorf("level %q addr %q: %v, want %v", tc.level, tc.addr, got, tc.want)
		}
	}
}
