package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestValidateFleet(t *testing.T) {
	dir := tempDir(t)
	tests := []struct {
		name   string
		mutate func(f *FleetConf)
		want   []string // substrings of the error; none means valid
	}{
		{"defaults", func(*FleetConf) {}, nil},
		{"full", func(f *FleetConf) {
			f.PrometheusURL = "http://127.0.0.1:9090"
			f.Job = "serviceMonitor/hostmcp/hostmcp/0"
			f.Hosts = []string{"http://10.0.0.5:8765", "https://db1.example/hostmcp"}
			f.ProxyURL = "https://kube.example/api/v1/namespaces/hostmcp/pods/{address}/proxy"
			f.TokenFile = "/etc/hostmcp/fleet.token"
			f.Parallelism, f.HostTimeout = 64, Duration{10 * time.Minute}
		}, nil},
		{"prometheus not http", func(f *FleetConf) { f.PrometheusURL = "127.0.0.1:9090" }, []string{"fleet.prometheus_url", "http://"}},
		{"prometheus with credentials", func(f *FleetConf) { f.PrometheusURL = "http://u:p@prom:9090" }, []string{"credentials do not go in the URL"}},
		{"job with a quote", func(f *FleetConf) { f.Job = `hostmcp",x="` }, []string{"fleet.job"}},
		{"empty job", func(f *FleetConf) { f.Job = "" }, []string{`fleet.job ""`}},
		{"bad hosts", func(f *FleetConf) { f.Hosts = []string{"10.0.0.5:8765", "http://a:1", "http://a:1", "http://b:1/?x=1"} }, []string{
			`fleet.hosts[0]: "10.0.0.5:8765"`, `fleet.hosts[2] "http://a:1": listed twice`, `fleet.hosts[3]: "http://b:1/?x=1": a base URL has no query`,
		}},
		{"proxy without placeholder", func(f *FleetConf) { f.ProxyURL = "https://kube.example/proxy" }, []string{"must hold {address} once"}},
		{"proxy twice", func(f *FleetConf) { f.ProxyURL = "https://{address}/{address}" }, []string{"must hold {address} once"}},
		{"relative token file", func(f *FleetConf) { f.TokenFile = "fleet.token" }, []string{"fleet.token_file \"fleet.token\": must be an absolute path"}},
		{"parallelism", func(f *FleetConf) { f.Parallelism = 65 }, []string{"fleet.parallelism 65: must be between 1 and 64"}},
		{"no parallelism", func(f *FleetConf) { f.Parallelism = 0 }, []string{"fleet.parallelism 0"}},
		{"host timeout", func(f *FleetConf) { f.HostTimeout = Duration{100 * time.Millisecond} }, []string{"fleet.host_timeout 100ms: must be between 1s and 10m0s"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default(dir, 0, envMap(nil))
			tc.mutate(&c.Fleet)
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

// The fleet token is read at each call with http.token_file's checks, and
// a message about it never holds the token.
func TestFleetToken(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if tok, err := (FleetConf{}).Token(); tok != "" || err != nil {
		t.Errorf("no token file: %q, %v", tok, err)
	}
	good := write("good", "fleet-token-0123456789abcdef\n", 0o600)
	if tok, err := (FleetConf{TokenFile: good}).Token(); tok != "fleet-token-0123456789abcdef" || err != nil {
		t.Errorf("token: %q, %v", tok, err)
	}
	for _, tc := range []struct{ name, body string }{{"short", "short-secret"}, {"spaced", "fleet token 0123456789abcdef"}} {
		p := write(tc.name, tc.body, 0o600)
		_, err := FleetConf{TokenFile: p}.Token()
		if err == nil || strings.Contains(err.Error(), tc.body) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	open := write("open", "fleet-token-0123456789abcdef", 0o644)
	if _, err := (FleetConf{TokenFile: open}).Token(); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("world-readable: %v", err)
	}
}
