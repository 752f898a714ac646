package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// fleetToken is the token of every host in BenchmarkFleetCall10Hosts.
const fleetToken = "fleet-bench-token-0123456789abcdef"

// BenchmarkFleetCall10Hosts is the fan-out's cost: fleet_call of
// sys_snapshot (cheap once each host's sampler runs) on 10 hostmcp
// binaries serving HTTP on loopback, asked by a fleet hostmcp over stdio,
// at the default parallelism (8) and with all 10 at once. The baselines,
// timed in the same iterations in turn: the same call made directly on an
// open HTTP session to one host, and on a fresh session (connect, call,
// close), which is what fleet_call does for each host, with its tools/list.
func BenchmarkFleetCall10Hosts(b *testing.B) {
	const hosts = 10
	var bases []string
	root := b.TempDir()
	for range hosts {
		u, _ := startHTTP(b, root, "", fleetToken)
		bases = append(bases, strings.TrimSuffix(u, "/mcp"))
	}
	tokenFile := filepath.Join(b.TempDir(), "fleet.token")
	if err := os.WriteFile(tokenFile, []byte(fleetToken), 0o600); err != nil {
		b.Fatal(err)
	}
	quoted, _ := json.Marshal(bases)
	direct := httpSession(b, bases[0])
	for _, parallelism := range []int{8, 10} {
		b.Run(fmt.Sprintf("parallelism=%d", parallelism), func(b *testing.B) {
			fleet := connectLoad(b, root, fmt.Sprintf("[toolsets]\nenabled = [\"fleet\"]\n\n[fleet]\nhosts = %s\ntoken_file = %q\nparallelism = %d\n",
				quoted, tokenFile, parallelism))
			fanOut := func() {
				res, err := fleet.CallTool(context.Background(), &mcp.CallToolParams{Name: "fleet_call",
					Arguments: map[string]any{"tool": "sys_snapshot", "hosts": bases}})
				if err != nil || res.IsError {
					b.Fatalf("fleet_call: %v %+v", err, res)
				}
				var env struct {
					Data struct {
						OK int `json:"ok"`
					} `json:"data"`
				}
				raw, _ := json.Marshal(res.StructuredContent)
				if json.Unmarshal(raw, &env) != nil || env.Data.OK != hosts {
					b.Fatalf("fleet_call: %d of %d hosts answered: %s", env.Data.OK, hosts, raw)
				}
			}
			call := func() { callTool(b, direct, "sys_snapshot", map[string]any{}) }
			fresh := func() {
				cs := httpSession(b, bases[1])
				if _, err := cs.ListTools(context.Background(), nil); err != nil {
					b.Fatal(err)
				}
				callTool(b, cs, "sys_snapshot", map[string]any{})
				cs.Close()
			}
			fanOut() // every host's sampler running, as after the first call
			runs := []func(){fanOut, call, fresh}
			times := make([][]time.Duration, len(runs))
			for i := 0; b.Loop(); i++ {
				for j := range runs {
					k := (i + j) % len(runs) // each goes first in turn: a busy machine weighs on all alike
					times[k] = append(times[k], timed(runs[k]))
				}
			}
			for i, name := range []string{"fleet", "direct", "fresh"} {
				p50, p99 := percentiles(times[i])
				b.ReportMetric(p50, name+"-p50-ms")
				b.ReportMetric(p99, name+"-p99-ms")
			}
		})
	}
}

// httpSession connects the go-sdk client to a hostmcp over streamable HTTP
// with fleetToken.
func httpSession(b *testing.B, base string) *mcp.ClientSession {
	b.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: base + "/mcp",
		HTTPClient: &http.Client{Transport: testutil.Bearer(fleetToken)}, DisableStandaloneSSE: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// percentiles are the median and 99th percentile of d, in milliseconds.
func percentiles(d []time.Duration) (p50, p99 float64) {
	if len(d) == 0 {
		return 0, 0
	}
	d = slices.Clone(d)
	slices.Sort(d)
	ms := func(x time.Duration) float64 { return float64(x.Microseconds()) / 1000 }
	return ms(d[len(d)/2]), ms(d[min(len(d)-1, len(d)*99/100)])
}
