package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// fleetToken is the one token of the fleet: every instance accepts it,
// Prometheus scrapes with it and the fleet hostmcp sends it.
const fleetToken = "fleet-e2e-token-0123456789abcdef"

// fleetHost is one namespaced instance of the fleet.
type fleetHost struct {
	hostname string
	addr     string // host:port, Prometheus's instance label
	tree     *liveTree
	srv      *httpServer
}

// startFleet captures this machine's /proc under CPU saturation, then
// starts one instance per hostname, each in its own network and UTS
// namespace, the first reading the saturated capture replayed and the
// others a calm host.
func startFleet(t *testing.T, hostnames ...string) []*fleetHost {
	t.Helper()
	fleetNet := newFleetNet(t)
	var hot capture
	if !t.Run("capture under saturation", func(t *testing.T) { hot = captureSaturated(t) }) {
		t.FailNow()
	}
	var hosts []*fleetHost
	for i, name := range hostnames {
		c := hot
		if i > 0 {
			c = calmCapture(t)
		}
		tree := newLiveTree(t, c)
		ns := fleetNet.add(t)
		srv := ns.startIn(t, newEnv(t, tree.hostTreeConfig()), fleetToken, name)
		if srv.base != "http://"+ns.addr {
			t.Fatalf("%s listens on %s, want http://%s", name, srv.base, ns.addr)
		}
		hosts = append(hosts, &fleetHost{hostname: name, addr: ns.addr, tree: tree, srv: srv})
	}
	return hosts
}

// captureSaturated saturates every CPU with burners (two per CPU, killed
// by pid when the capture ends) and captures /proc meanwhile. It holds the
// machine-wide load lock while it burns, so that no other package's
// verdict judges the burners.
func captureSaturated(t *testing.T) capture {
	t.Helper()
	bin := buildBurner(t)
	testutil.ExclusiveLoad(t)
	for range 2 * runtime.NumCPU() {
		runBurner(t, bin)
	}
	c := captureProc(t, 12)
	if busy := c.busyPercent(t); busy <= health.ThreshCPUBusy.Crit {
		t.Fatalf("the CPUs were %.0f%% busy under %d burners, not over the critical %.0f%%", busy, 2*runtime.NumCPU(), health.ThreshCPUBusy.Crit)
	}
	return c
}

// connectHTTP connects the go-sdk client to an instance with the token.
func connectHTTP(t *testing.T, ctx context.Context, base, token string) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-fleet", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   base + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{token}},
	}, nil)
	if err != nil {
		t.Fatalf("connecting to %s: %v", base, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// answeringHost is the hostname in a result's provenance (its _meta): the
// machine that answered, as its own UTS namespace names it.
func answeringHost(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	js, _ := json.Marshal(res.Meta[provenanceKey])
	var p provenance
	if err := json.Unmarshal(js, &p); err != nil {
		t.Fatalf("the result's provenance %s: %v", js, err)
	}
	return p.Host
}

// scrapeFleet starts a Prometheus that scrapes every host as job
// "hostmcp" every second, with the fleet's token, and waits until it has
// each one's health.
func scrapeFleet(t *testing.T, hosts []*fleetHost) string {
	t.Helper()
	promBin := testutil.RequireBinary(t, "prometheus")
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "token")
	if err := os.WriteFile(tokenFile, []byte(fleetToken+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	var targets []string
	for _, h := range hosts {
		targets = append(targets, fmt.Sprintf("%q", h.addr))
	}
	cfg := filepath.Join(dir, "prometheus.yml")
	body := fmt.Sprintf(`global:
  scrape_interval: 1s
  scrape_timeout: 1s
scrape_configs:
  - job_name: hostmcp
    authorization:
      credentials_file: %s
    static_configs:
      - targets: [%s]
`, tokenFile, strings.Join(targets, ", "))
	if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	prom := startPrometheus(t, promBin, cfg, filepath.Join(dir, "data"))
	var addrs []string
	for _, h := range hosts {
		addrs = append(addrs, h.addr)
	}
	waitTargetsUp(t, prom, addrs)
	return prom
}

// waitDown waits until Prometheus's last scrape of instance failed.
func waitDown(t *testing.T, prom, instance string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		if up, ok := promQuery(t, prom, `up{job="hostmcp"}`)[instance]; ok && up == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("Prometheus does not see %s down after 30 s", instance)
		}
		time.Sleep(250 * time.Millisecond)
	}
}

// kill stops an instance as a crash would, by its pid.
func (h *fleetHost) kill(t *testing.T) {
	t.Helper()
	if err := h.srv.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatalf("killing %s: %v", h.hostname, err)
	}
}

// Several hostmcp instances, each in its own network and UTS namespace,
// one of them reading a host tree captured under CPU saturation: the
// saturated one judges itself critical on CPU, the calm ones healthy, each
// answers with its own hostname, and a real Prometheus scrapes them all as
// one job. A fleet hostmcp asked through the go-sdk client ranks the
// saturated host first, runs perf_use_check on it, and shows a killed
// host as unreachable (askFleet).
func TestFleetOfNamespacedHosts(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireFile(t, "/proc/pressure/cpu")
	hosts := startFleet(t, "fleet-hot", "fleet-calm-1", "fleet-calm-2", "fleet-calm-3")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	for i, h := range hosts {
		cs := connectHTTP(t, ctx, h.srv.base, fleetToken)
		env, res := call(t, ctx, cs, listTools(t, ctx, cs), "perf_use_check", map[string]any{"interval_ms": 1000})
		if got := answeringHost(t, res); got != h.hostname {
			t.Errorf("%s answers as host %q, want its own UTS namespace's %q", h.addr, got, h.hostname)
		}
		var use health.UseCheck
		decodeData(t, env, &use)
		cpu := use.Resources.CPU.Utilization
		if i == 0 {
			if use.Summary.Status != health.StatusCritical || cpu.Status != health.StatusCritical ||
				len(use.Summary.TopSuspicions) == 0 || use.Summary.TopSuspicions[0].Resource != "cpu" {
				t.Errorf("%s, replaying a saturated capture, is not judged critical on CPU first: %s", h.hostname, env.Data)
			}
		} else if cpu.Status != health.StatusHealthy || use.Resources.CPU.Saturation.Status != health.StatusHealthy {
			t.Errorf("%s, replaying a calm host, is not healthy on CPU: %s", h.hostname, env.Data)
		}
	}

	scraped := time.Now()
	prom := scrapeFleet(t, hosts)
	cpuStatus := promQuery(t, prom, `max by (instance) (hostmcp_health_status{job="hostmcp",resource="cpu"})`)
	for i, h := range hosts {
		want := 0.0
		if i == 0 {
			want = 2
		}
		if got, ok := cpuStatus[h.addr]; !ok || got != want {
			t.Errorf("Prometheus has %s's CPU status %v (present %v), want %v", h.hostname, got, ok, want)
		}
	}

	askFleet(t, ctx, prom, scraped, hosts)
}
