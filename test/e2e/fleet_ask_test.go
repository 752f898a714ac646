package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// fleetAgent is the hostmcp an agent talks to about the fleet: the fleet
// toolset only, over stdio, asking prom and sending the fleet's token.
type fleetAgent struct {
	cs    *mcp.ClientSession
	tools map[string]*mcp.Tool
}

func startFleetAgent(t *testing.T, ctx context.Context, prom string) *fleetAgent {
	t.Helper()
	tokenFile := filepath.Join(t.TempDir(), "fleet-token")
	if err := os.WriteFile(tokenFile, []byte(fleetToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e := newEnv(t, fmt.Sprintf("[toolsets]\nenabled = [\"fleet\"]\n\n[fleet]\nprometheus_url = %q\ntoken_file = %q\nhost_timeout = \"20s\"\n", prom, tokenFile))
	cs := e.connectStdio(t, ctx)
	return &fleetAgent{cs: cs, tools: listTools(t, ctx, cs)}
}

// overviewRow is one host of fleet_overview's answer.
type overviewRow struct {
	Host         string `json:"host"`
	Instance     string `json:"instance"`
	Status       string `json:"status"`
	TopSuspicion string `json:"top_suspicion"`
	Since        string `json:"since"`
	Reason       string `json:"reason"`
}

func (a *fleetAgent) overview(t *testing.T, ctx context.Context) []overviewRow {
	t.Helper()
	env, _ := call(t, ctx, a.cs, a.tools, "fleet_overview", map[string]any{})
	var out struct {
		Hosts []overviewRow `json:"hosts"`
	}
	decodeData(t, env, &out)
	return out.Hosts
}

// callRow is one host of fleet_call's answer.
type callRow struct {
	Host       string `json:"host"`
	Instance   string `json:"instance"`
	OK         bool   `json:"ok"`
	ErrorCode  string `json:"error_code"`
	Summary    string `json:"summary"`
	DurationMS int64  `json:"duration_ms"`
}

type callAnswer struct {
	Hosts  []callRow `json:"hosts"`
	Handle string    `json:"handle"`
}

func (a *fleetAgent) call(t *testing.T, ctx context.Context, args map[string]any) callAnswer {
	t.Helper()
	env, _ := call(t, ctx, a.cs, a.tools, "fleet_call", args)
	var out callAnswer
	decodeData(t, env, &out)
	return out
}

// handleHosts reads a fleet_call handle whole and returns, by instance,
// the host that answered each successful full result.
func (a *fleetAgent) handleHosts(t *testing.T, ctx context.Context, handle string) map[string]string {
	t.Helper()
	env, _ := call(t, ctx, a.cs, a.tools, "handle_read", map[string]any{"handle": handle, "unit": "bytes"})
	var page struct {
		Content string `json:"content"`
		EOF     bool   `json:"eof"`
	}
	decodeData(t, env, &page)
	if !page.EOF {
		t.Fatalf("fleet_call's handle holds more than a page of results")
	}
	// A line with the tool and its args, then a line per host.
	out := map[string]string{}
	dec := json.NewDecoder(strings.NewReader(page.Content))
	for dec.More() {
		var line struct {
			Instance string          `json:"instance"`
			Call     *provenance     `json:"call"`
			Result   json.RawMessage `json:"result"`
		}
		if err := dec.Decode(&line); err != nil {
			t.Fatalf("fleet_call's handle: %v\n%s", err, page.Content)
		}
		var env struct {
			Success bool `json:"success"`
		}
		if line.Instance != "" && line.Call != nil && json.Unmarshal(line.Result, &env) == nil && env.Success {
			out[line.Instance] = line.Call.Host
		}
	}
	return out
}

// rowOf is the overview row of an instance.
func rowOf(rows []overviewRow, instance string) (overviewRow, bool) {
	for _, r := range rows {
		if r.Instance == instance {
			return r, true
		}
	}
	return overviewRow{}, false
}

// askFleet is the agent's side of the fleet test: fleet_overview ranks the
// saturated host (hosts[0]) first by its hostname, fleet_call on the top
// host returns its verdict naming the CPU, and once the last host is
// killed both show it unreachable rather than dropping it.
// scraped is a time before Prometheus started.
func askFleet(t *testing.T, ctx context.Context, prom string, scraped time.Time, hosts []*fleetHost) {
	t.Helper()
	agent := startFleetAgent(t, ctx, prom)

	rows := agent.overview(t, ctx)
	t.Logf("fleet_overview: %+v", rows)
	if len(rows) != len(hosts) {
		t.Fatalf("fleet_overview has %d rows, want one per host (%d): %+v", len(rows), len(hosts), rows)
	}
	hot := hosts[0]
	if top := rows[0]; top.Host != hot.hostname || top.Instance != hot.addr || top.Status != "critical" || !strings.HasPrefix(top.TopSuspicion, "cpu ") {
		t.Errorf("fleet_overview's first row is %+v; want %s (%s), critical on cpu", top, hot.hostname, hot.addr)
	}
	for _, h := range hosts {
		r, ok := rowOf(rows, h.addr)
		if !ok || r.Host != h.hostname {
			t.Errorf("fleet_overview has no row for %s as %s: %+v", h.addr, h.hostname, rows)
			continue
		}
		since, err := time.Parse(time.RFC3339, r.Since)
		if err != nil || since.Before(scraped) || since.After(time.Now()) {
			t.Errorf("%s: since %q (%v), want an RFC 3339 time since Prometheus started scraping", h.hostname, r.Since, err)
		}
		if h != hot && r.Status == "critical" {
			t.Errorf("%s, a calm host, is critical: %+v", h.hostname, r)
		}
	}

	top := agent.call(t, ctx, map[string]any{"tool": "perf_use_check", "args": map[string]any{"interval_ms": 1000}, "top_k": 1})
	t.Logf("fleet_call top_k 1: %+v", top.Hosts)
	if len(top.Hosts) != 1 || top.Hosts[0].Host != hot.hostname || !top.Hosts[0].OK || !strings.Contains(top.Hosts[0].Summary, "CPU") {
		t.Errorf("fleet_call perf_use_check on the top host: %+v; want %s's verdict naming the CPU", top.Hosts, hot.hostname)
	}
	if got := agent.handleHosts(t, ctx, top.Handle); got[hot.addr] != hot.hostname {
		t.Errorf("fleet_call's handle has results from %v; want %s's from %s", got, hot.hostname, hot.addr)
	}

	refused, _ := call(t, ctx, agent.cs, agent.tools, "fleet_call", map[string]any{"tool": "proc_kill", "args": map[string]any{"pid": 1}, "top_k": 1})
	if refused.Success || refused.Error == nil || refused.Error.Code != "READ_ONLY" {
		t.Errorf("fleet_call proc_kill was not refused as READ_ONLY: %s %+v", refused.Data, refused.Error)
	}

	down := hosts[len(hosts)-1]
	down.kill(t)
	waitDown(t, prom, down.addr)
	// fleet_overview reads Prometheus at the whole second, which may be
	// just before the failed scrape that Prometheus's own up already
	// shows: it is asked again until it sees that scrape too.
	deadline := time.Now().Add(15 * time.Second)
	for {
		rows = agent.overview(t, ctx)
		r, ok := rowOf(rows, down.addr)
		if ok && r.Status == "unreachable" {
			t.Logf("fleet_overview after the kill: %+v", rows)
			if r.Host != down.hostname || r.Reason == "" {
				t.Errorf("%s's unreachable row is %+v; want it named %s, with a reason", down.addr, r, down.hostname)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15 s after Prometheus saw %s down, its fleet_overview row is %+v (present %v); want unreachable", down.addr, r, ok)
		}
		time.Sleep(500 * time.Millisecond)
	}
	if len(rows) != len(hosts) {
		t.Errorf("fleet_overview has %d rows after a host went down, want all %d: %+v", len(rows), len(hosts), rows)
	}

	var names []string
	for _, h := range hosts {
		names = append(names, h.hostname)
	}
	all := agent.call(t, ctx, map[string]any{"tool": "perf_use_check", "args": map[string]any{"interval_ms": 500}, "hosts": names})
	t.Logf("fleet_call on every host: %+v", all.Hosts)
	if len(all.Hosts) != len(hosts) {
		t.Fatalf("fleet_call on every host answered %d rows, want %d: %+v", len(all.Hosts), len(hosts), all.Hosts)
	}
	for i, h := range hosts {
		r := all.Hosts[i]
		switch {
		case r.Instance != h.addr:
			t.Errorf("fleet_call row %d is %s, want %s (the order asked)", i, r.Instance, h.addr)
		case h == down && (r.OK || r.ErrorCode != "HOST_UNREACHABLE"):
			t.Errorf("fleet_call on %s, killed: %+v; want a HOST_UNREACHABLE row", h.hostname, r)
		case h != down && (!r.OK || r.Host != h.hostname):
			t.Errorf("fleet_call on %s: %+v; want its answer", h.hostname, r)
		}
	}
}
