package config

import (
	"fmt"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// FleetConf is the fleet toolset's view of the other hosts: where
// Prometheus answers for them, which of its jobs are hostmcp endpoints, and
// how to reach those endpoints. It is read by the hostmcp an agent talks to,
// not by the hosts it asks.
type FleetConf struct {
	// PrometheusURL is the base of Prometheus's HTTP API
	// ("http://127.0.0.1:9090"); empty leaves fleet_overview, top_k and
	// discovery out, and fleet_call reaches only Hosts.
	PrometheusURL string `toml:"prometheus_url"`
	// Job is the Prometheus job whose targets are hostmcp HTTP endpoints.
	Job string `toml:"job"`
	// Hosts are base URLs of hostmcp endpoints ("http://10.0.0.5:8080"),
	// besides (or instead of) the job's targets; /mcp is added.
	Hosts []string `toml:"hosts"`
	// ProxyURL, when set, is the base URL of every host with {address}
	// replaced by its host:port, for hosts reached through a proxy such as
	// the Kubernetes API server's.
	ProxyURL string `toml:"proxy_url"`
	// TokenFile holds the bearer token sent to every host; it is read at
	// each call (so a rotated token is picked up) and never echoed.
	TokenFile string `toml:"token_file"`
	// Parallelism bounds how many hosts one fleet_call asks at once.
	Parallelism int `toml:"parallelism"`
	// HostTimeout bounds one host's answer, connection included.
	HostTimeout Duration `toml:"host_timeout"`
}

// DefaultFleet asks eight hosts at once and gives each 30 s, the time a
// sampling tool such as perf_use_check takes with room to spare.
func DefaultFleet() FleetConf {
	return FleetConf{Job: "hostmcp", Parallelism: 8, HostTimeout: Duration{30 * time.Second}}
}

// Bounds of [fleet].
const (
	maxFleetParallelism = 64
	maxFleetHosts       = 1024
	minHostTimeout      = time.Second
	maxHostTimeout      = 10 * time.Minute
	// AddressPlaceholder is what proxy_url's {address} is spelt as.
	AddressPlaceholder = "{address}"
)

// validJob keeps the job name to characters that need no escaping inside
// the PromQL string the fleet toolset puts it in. It is checked by hand: a
// counted regexp would be compiled at every start-up.
func validJob(job string) bool { return alnumOr(job, 128, "_.:/-") }

func (c *Config) validateFleet() []error {
	var errs []error
	f := c.Fleet
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if f.PrometheusURL != "" {
		if err := checkBaseURL(f.PrometheusURL); err != nil {
			bad("fleet.prometheus_url: %v", err)
		}
	}
	if !validJob(f.Job) {
		bad("fleet.job %q: want 1 to 128 letters, digits or _ . : / -", f.Job)
	}
	if len(f.Hosts) > maxFleetHosts {
		bad("fleet.hosts: %d entries; at most %d", len(f.Hosts), maxFleetHosts)
	}
	for i, h := range f.Hosts {
		if err := checkBaseURL(h); err != nil {
			bad("fleet.hosts[%d]: %v", i, err)
		} else if slices.Contains(f.Hosts[:i], h) {
			bad("fleet.hosts[%d] %q: listed twice", i, h)
		}
	}
	if f.ProxyURL != "" {
		if strings.Count(f.ProxyURL, AddressPlaceholder) != 1 {
			bad("fleet.proxy_url %q: must hold %s once, where each host's host:port goes", f.ProxyURL, AddressPlaceholder)
		} else if err := checkBaseURL(strings.Replace(f.ProxyURL, AddressPlaceholder, "10.0.0.5:8765", 1)); err != nil {
			bad("fleet.proxy_url: %v", err)
		}
	}
	if f.TokenFile != "" && !filepath.IsAbs(f.TokenFile) {
		bad("fleet.token_file %q: must be an absolute path", f.TokenFile)
	}
	checkRange(&errs, "fleet.parallelism", f.Parallelism, 1, maxFleetParallelism)
	if d := f.HostTimeout.Duration; d < minHostTimeout || d > maxHostTimeout {
		bad("fleet.host_timeout %s: must be between %s and %s", d, minHostTimeout, maxHostTimeout)
	}
	return errs
}

// checkBaseURL wants an http or https URL with a host, and nothing a base
// URL should not carry: credentials (they would be echoed in messages and
// logs; the token file is for that), a query or a fragment.
func checkBaseURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return fmt.Errorf("%q: want an http:// or https:// URL (%w)", s, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q: want an http:// or https:// URL", s)
	case u.Host == "":
		return fmt.Errorf("%q: no host", s)
	case u.User != nil:
		return fmt.Errorf("%q: credentials do not go in the URL; use fleet.token_file", s)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q: a base URL has no query or fragment", s)
	}
	return nil
}

// Token reads the bearer token of token_file, with the checks of
// http.token_file (owner-only mode, one word, 16 characters or more); ""
// when none is configured.
func (f FleetConf) Token() (string, error) {
	if f.TokenFile == "" {
		return "", nil
	}
	raw, err := readTokenFile(f.TokenFile)
	if err != nil {
		return "", err
	}
	return checkToken(raw, "fleet.token_file "+f.TokenFile)
}
