package fleet_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// callRow and callAnswer are fleet_call's answer as a client decodes it.
type callRow struct {
	Host       string `json:"host"`
	Instance   string `json:"instance"`
	OK         bool   `json:"ok"`
	ErrorCode  string `json:"error_code"`
	Summary    string `json:"summary"`
	DurationMS int64  `json:"duration_ms"`
}

type callAnswer struct {
	Tool   string    `json:"tool"`
	Hosts  []callRow `json:"hosts"`
	OK     int       `json:"ok"`
	Failed int       `json:"failed"`
	Handle string    `json:"handle"`
}

// handleLines reads a handle whole and splits it into its JSON lines.
func handleLines(t *testing.T, a interface {
	Call(context.Context, string, json.RawMessage) (tool.Result, error)
}, id string) []string {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"handle": id, "unit": "bytes", "limit": 1 << 20})
	res, err := a.Call(context.Background(), "handle_read", raw)
	if err != nil || res.Err != nil {
		t.Fatalf("handle_read: %v %v", err, res.Err)
	}
	var page struct {
		Content string `json:"content"`
		EOF     bool   `json:"eof"`
	}
	if err := json.Unmarshal(res.Envelope.Data, &page); err != nil || !page.EOF {
		t.Fatalf("handle_read: %v, eof %v", err, page.EOF)
	}
	return strings.Split(strings.TrimSuffix(page.Content, "\n"), "\n")
}

// Real hosts answer with their verdict; a host that is down, one that
// refuses the token and one slower than host_timeout are rows with their
// error, in the order asked, and the handle holds every host's full result.
func TestFleetCallEveryHostIsARow(t *testing.T) {
	hostname, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	a, b := startHost(t, hostOpts{}), startHost(t, hostOpts{})
	down := closedAddr(t)
	other := startHost(t, hostOpts{Token: "another-token-0123456789abcdef"})
	slow := startHost(t, hostOpts{})
	slow.calls.delay = 20 * time.Second
	f := fleetHost(t, func(f *config.FleetConf) {
		f.Hosts = []string{a.Base, b.Base, "http://" + down, other.Base, slow.Base}
		f.HostTimeout = config.Duration{Duration: 2 * time.Second}
	})

	res := call(t, f, "fleet_call", map[string]any{
		"tool": "perf_use_check", "args": map[string]any{"interval_ms": 200},
		"hosts": []string{a.Addr, b.Base, down, other.Addr, slow.Addr},
	})
	got := data[callAnswer](t, res)
	want := []struct {
		instance, code string
	}{{a.Addr, ""}, {b.Addr, ""}, {down, "HOST_UNREACHABLE"}, {other.Addr, "PERMISSION_DENIED"}, {slow.Addr, "TIMEOUT"}}
	if len(got.Hosts) != len(want) || got.OK != 2 || got.Failed != 3 {
		t.Fatalf("answer %+v: want %d rows, 2 ok, 3 failed", got, len(want))
	}
	for i, w := range want {
		r := got.Hosts[i]
		if r.Instance != w.instance || r.ErrorCode != w.code || r.OK != (w.code == "") || r.Summary == "" {
			t.Errorf("row %d: %+v, want instance %s, error_code %q and a summary", i, r, w.instance, w.code)
		}
		if r.OK && (r.Host != hostname || strings.Contains(r.Summary, "\n") || len(r.Summary) > tool.ClipBytes+20) {
			t.Errorf("row %d: host %q (want %q), summary %q", i, r.Host, hostname, r.Summary)
		}
	}
	if r := got.Hosts[4]; r.DurationMS < 2000 || r.DurationMS > 15000 || !strings.Contains(r.Summary, "host_timeout (2s)") {
		t.Errorf("slow host: %+v, want TIMEOUT after host_timeout 2s, not its 20 s", r)
	}
	if got.Hosts[3].Summary != "the host refused the token (HTTP 401)" {
		t.Errorf("wrong token: %q", got.Hosts[3].Summary)
	}

	// The handle: the call, then every host's whole answer, the result
	// envelope of those that answered.
	lines := handleLines(t, f.Server, got.Handle)
	if len(lines) != 1+len(want) || !strings.Contains(lines[0], `"tool":"perf_use_check"`) {
		t.Fatalf("handle lines: %d, first %.200s", len(lines), lines[0])
	}
	for i, line := range lines[1:] {
		var full struct {
			Instance  string `json:"instance"`
			ErrorCode string `json:"error_code"`
			Result    *struct {
				Success bool   `json:"success"`
				Tool    string `json:"tool"`
				Data    struct {
					Summary struct {
						Verdict string `json:"verdict"`
						Status  string `json:"status"`
					} `json:"summary"`
				} `json:"data"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &full); err != nil {
			t.Fatal(err)
		}
		answered := i < 2
		if full.Instance != want[i].instance || (full.Result != nil) != answered {
			t.Errorf("handle line %d: %.300s", i+1, line)
			continue
		}
		if answered && (!full.Result.Success || full.Result.Tool != "perf_use_check" || !strings.HasPrefix(full.Result.Data.Summary.Verdict, strings.TrimSuffix(strings.SplitN(got.Hosts[i].Summary, "…", 2)[0], " "))) {
			t.Errorf("handle line %d: %+v; the row's summary is %q", i+1, full.Result, got.Hosts[i].Summary)
		}
	}
	if n := slow.calls.count(); n != 1 {
		t.Errorf("the slow host got %d tools/call requests, want 1 (no retry)", n)
	}
}

// A tool this binary knows to change something is refused before any host
// is asked, as are the fleet tools themselves and a host nobody listed.
func TestFleetCallRefusals(t *testing.T) {
	h := startHost(t, hostOpts{})
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts = []string{h.Base} })
	for _, tc := range []struct {
		name string
		args map[string]any
		code tool.Code
		msg  string
	}{
		{"mutating", map[string]any{"tool": "fs_mkdirs", "args": map[string]any{"path": "x"}, "hosts": []string{h.Addr}},
			tool.ReadOnlyMode, "fs_mkdirs is mutating, and fleet_call runs read-only tools only"},
		{"destructive", map[string]any{"tool": "proc_kill", "args": map[string]any{"pid": 1}, "top_k": 1},
			tool.ReadOnlyMode, "proc_kill is destructive"},
		{"fan-out of fan-outs", map[string]any{"tool": "fleet_call", "hosts": []string{h.Addr}},
			tool.InvalidArgument, "not fleet_call"},
		{"unknown host", map[string]any{"tool": "perf_info", "hosts": []string{"10.0.0.9:8765"}},
			tool.InvalidArgument, `host "10.0.0.9:8765" is not one of the fleet's hosts`},
		{"both hosts and top_k", map[string]any{"tool": "perf_info", "hosts": []string{h.Addr}, "top_k": 1},
			tool.InvalidParams, "exactly one"},
		{"top_k without Prometheus", map[string]any{"tool": "perf_info", "top_k": 1},
			tool.FeatureDisabled, "prometheus_url is not set"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := call(t, f, "fleet_call", tc.args)
			if res.Err == nil || res.Err.Code != tc.code || !strings.Contains(res.Err.Message, tc.msg) || res.Err.Suggestion == "" {
				t.Errorf("%+v, want %s: %s, with a suggestion", res.Err, tc.code, tc.msg)
			}
		})
	}
	if n := h.calls.count(); n != 0 {
		t.Errorf("the host got %d tools/call requests, want none", n)
	}
}

// A host whose own tools/list does not mark the tool read-only (a tool
// this binary does not know) is a row refused READ_ONLY, and the tool
// never runs there.
func TestFleetCallRemoteKindDecides(t *testing.T) {
	ran := 0
	write := tool.New(tool.Spec{Name: "site_write", Kind: tool.Mutating, Title: "Write", Description: "Writes something."},
		func(context.Context, *tool.Call, struct{}) (struct{}, error) { ran++; return struct{}{}, nil })
	look := tool.New(tool.Spec{Name: "site_look", Kind: tool.ReadOnly, Title: "Look", Description: "Looks at something."},
		func(context.Context, *tool.Call, struct{}) (struct {
			Status string `json:"status"`
		}, error) {
			return struct {
				Status string `json:"status"`
			}{"all quiet"}, nil
		})
	h := startHost(t, hostOpts{Toolsets: []tool.Toolset{{Name: "core", Tools: []*tool.Def{write, look}}}})
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts = []string{h.Base} })

	got := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "site_write", "hosts": []string{h.Addr}}))
	if len(got.Hosts) != 1 || got.Hosts[0].ErrorCode != "READ_ONLY" || !strings.Contains(got.Hosts[0].Summary, "does not mark site_write read-only") {
		t.Errorf("%+v, want one row refused READ_ONLY", got.Hosts)
	}
	got = data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "site_look", "hosts": []string{h.Addr}}))
	if len(got.Hosts) != 1 || !got.Hosts[0].OK || got.Hosts[0].Summary != "all quiet" {
		t.Errorf("%+v, want one row with the status as summary", got.Hosts)
	}
	got = data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "site_gone", "hosts": []string{h.Addr}}))
	if len(got.Hosts) != 1 || got.Hosts[0].ErrorCode != "INVALID_ARGUMENT" || !strings.Contains(got.Hosts[0].Summary, "does not serve site_gone") {
		t.Errorf("%+v, want a row saying the host does not serve it", got.Hosts)
	}
	if ran != 0 || h.calls.count() != 1 {
		t.Errorf("site_write ran %d times; %d tools/call reached the host, want only site_look's", ran, h.calls.count())
	}
}

// At most parallelism hosts are asked at once: every host holds its
// request until parallelism of them are in flight, so a fan-out that kept
// to the bound shows exactly that many, and one that did not, more.
func TestFleetCallParallelismBounded(t *testing.T) {
	const hosts, parallelism = 6, 2
	gate := newGate(parallelism)
	var bases, addrs []string
	for range hosts {
		h := startHost(t, hostOpts{Gate: gate})
		bases, addrs = append(bases, h.Base), append(addrs, h.Addr)
	}
	f := fleetHost(t, func(f *config.FleetConf) { f.Hosts, f.Parallelism = bases, parallelism })
	got := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": addrs}))
	if got.OK != hosts {
		t.Errorf("%d of %d hosts answered: %+v", got.OK, hosts, got.Hosts)
	}
	if peak := gate.max(); peak != parallelism {
		t.Errorf("%d requests in flight at once at most, want parallelism %d", peak, parallelism)
	}
}

// Through proxy_url each host is reached at the proxy, with its address
// in the path.
func TestFleetCallThroughProxy(t *testing.T) {
	h := startHost(t, hostOpts{})
	proxy, seen := startProxy(t)
	f := fleetHost(t, func(f *config.FleetConf) {
		f.Hosts = []string{h.Base}
		f.ProxyURL = proxy + "/hosts/{address}/"
	})
	got := data[callAnswer](t, call(t, f, "fleet_call", map[string]any{"tool": "perf_info", "hosts": []string{h.Addr}}))
	if len(got.Hosts) != 1 || !got.Hosts[0].OK {
		t.Fatalf("%+v", got.Hosts)
	}
	if p := seen(); p != "/hosts/"+h.Addr+"/mcp" {
		t.Errorf("the proxy saw %q", p)
	}
}
