package config

import (
	"strings"
	"testing"
	"time"
)

func TestValidateLoad(t *testing.T) {
	dir := tempDir(t)
	tests := []struct {
		name   string
		mutate func(l *LoadConf)
		want   []string
	}{
		{"defaults", func(l *LoadConf) {}, nil},
		{"no queues", func(l *LoadConf) { l.QueuedCalls, l.QueuedProgramCalls = 0, 0 }, nil},
		{"zeros", func(l *LoadConf) { *l = LoadConf{} }, []string{
			"load.max_calls 0: must be between 1 and 4096",
			"load.max_program_calls 0: must be between 1 and 1024",
			"load.queue_wait 0s: must be greater than zero and at most 1m",
			"load.calls_per_second 0: must be between 0.01 and 1000000",
			"load.burst 0: must be between 1 and 1000000",
			"load.max_http_requests 0: must be between 1 and 65536",
		}},
		{"too big", func(l *LoadConf) {
			l.QueuedCalls, l.QueueWait, l.CallsPerSecond = 5000, Duration{2 * time.Minute}, 2e6
		}, []string{
			"load.queued_calls 5000: must be between 0 and 4096",
			"load.queue_wait 2m0s: must be greater than zero and at most 1m",
			"load.calls_per_second 2e+06: must be between 0.01 and 1000000",
		}},
		{"programs over calls", func(l *LoadConf) { l.MaxCalls, l.MaxProgramCalls = 4, 8 },
			[]string{"load.max_program_calls 8: more than load.max_calls 4"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default(dir, 0, envMap(nil))
			tc.mutate(&c.Load)
			err := c.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate succeeded, want errors")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%s\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// A rate may be written as an integer or a fraction.
func TestLoadTableFromFile(t *testing.T) {
	dir := tempDir(t)
	for doc, want := range map[string]float64{
		"[load]\ncalls_per_second = 20\nburst = 5\n":  20,
		"[load]\ncalls_per_second = 0.5\nburst = 5\n": 0.5,
	} {
		path := writeFile(t, dir, "hostmcp.toml", doc, 0o600)
		c, err := Load(Flags{ConfigPath: path}, envMap(map[string]string{"XDG_STATE_HOME": dir}), dir)
		if err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
		if c.Load.CallsPerSecond != want || c.Load.Burst != 5 || c.Load.MaxCalls != DefaultLoad().MaxCalls {
			t.Errorf("%q: loaded %+v", doc, c.Load)
		}
	}
}
