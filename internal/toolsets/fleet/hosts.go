package fleet

import (
	"cmp"
	"context"
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// host is one hostmcp endpoint the fleet tools know: a target of the
// Prometheus job or a [fleet] hosts entry. Nothing else is ever asked, so
// the token goes only where the operator (or Prometheus's discovery) says.
type host struct {
	Name     string // the hostname it reports (hostmcp_host_info); "" until known
	Instance string // Prometheus's instance label, or a static host's host:port
	Address  string // host:port connected to (or put into proxy_url)
	Base     string // scheme://host:port[/path], before /mcp
	// FromPrometheus is true for a target of the job; LastError is then
	// the error of Prometheus's last scrape of it, if it failed.
	FromPrometheus bool
	LastError      string
}

// hostNameLookback is how far back the hostnames of hosts that stopped
// answering are looked for.
const hostNameLookback = time.Hour

// knownHosts lists the job's targets (when Prometheus is configured) with
// their hostnames, then the [fleet] hosts Prometheus does not scrape.
func (s *Set) knownHosts(ctx context.Context, p *prom) ([]host, error) {
	var out []host
	if p != nil {
		targets, err := p.targets(ctx)
		if err != nil {
			return nil, err
		}
		names, err := p.hostNames(ctx)
		if err != nil {
			return nil, err
		}
		for _, t := range targets {
			h := host{Name: names[t.Instance], Instance: t.Instance, Address: t.Instance, Base: "http://" + t.Instance,
				FromPrometheus: true, LastError: t.LastError}
			if u, err := url.Parse(t.ScrapeURL); err == nil && u.Host != "" {
				h.Address, h.Base = u.Host, u.Scheme+"://"+u.Host
			}
			out = append(out, h)
		}
		// Prometheus lists its targets in no stable order; a name that
		// matches several hosts (pick) asks them in one.
		slices.SortFunc(out, func(a, b host) int { return cmp.Compare(a.Instance, b.Instance) })
	}
	for _, base := range s.cfg.Hosts {
		u, err := url.Parse(base)
		if err != nil { // config.Validate refused it already
			continue
		}
		if i := slices.IndexFunc(out, func(h host) bool { return h.Address == u.Host || h.Instance == u.Host }); i >= 0 {
			out[i].Base = strings.TrimSuffix(base, "/") // the operator's scheme and path win
			continue
		}
		out = append(out, host{Instance: u.Host, Address: u.Host, Base: strings.TrimSuffix(base, "/")})
	}
	return out, nil
}

// hostNames maps each instance of the job to the hostname it reported
// last within hostNameLookback, so a host that stopped answering keeps its
// name.
func (p *prom) hostNames(ctx context.Context) (map[string]string, error) {
	q := fmt.Sprintf("max by (instance, hostname) (last_over_time(%s[%s]))", p.sel("hostmcp_host_info"), model.Duration(hostNameLookback))
	vec, err := p.vector(ctx, q, time.Now())
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	for _, s := range vec {
		out[string(s.Metric[model.InstanceLabel])] = string(s.Metric["hostname"])
	}
	return out, nil
}

// endpoint is the URL of h's MCP endpoint: its base URL, or proxy_url with
// its address put in, and /mcp.
func endpoint(cfg config.FleetConf, h host) string {
	base := h.Base
	if cfg.ProxyURL != "" {
		base = strings.Replace(cfg.ProxyURL, config.AddressPlaceholder, h.Address, 1)
	}
	return strings.TrimSuffix(base, "/") + "/mcp"
}

// pick finds each named host by its hostname, instance, address or base
// URL. A name that matches no known host is refused: fleet_call never
// sends the token to an address the agent made up.
func pick(known []host, names []string) ([]host, error) {
	var out []host
	for _, n := range names {
		n = strings.TrimSpace(n)
		found := false
		for _, h := range known {
			if n != "" && (n == h.Name || n == h.Instance || n == h.Address || strings.TrimSuffix(n, "/") == h.Base) {
				found = true
				if !slices.ContainsFunc(out, func(o host) bool { return o.Instance == h.Instance }) {
					out = append(out, h)
				}
			}
		}
		if !found {
			return nil, tool.Errorf(tool.InvalidArgument, "host %q is not one of the fleet's hosts", tool.Clip(n)).
				WithSuggestion("Use a host or instance from fleet_overview's rows%s.", knownList(known))
		}
	}
	return out, nil
}

// knownList names a few known hosts for a suggestion.
func knownList(known []host) string {
	if len(known) == 0 {
		return " (none is known: Prometheus lists no target of the job and [fleet] hosts is empty)"
	}
	var names []string
	for _, h := range known[:min(len(known), 8)] {
		names = append(names, cmp.Or(h.Name, h.Instance))
	}
	more := ""
	if len(known) > 8 {
		more = fmt.Sprintf(" and %d more", len(known)-8)
	}
	return "; known: " + strings.Join(names, ", ") + more
}
