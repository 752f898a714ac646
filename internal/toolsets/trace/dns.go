package trace

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// dnsIn is perf_dns_latency's input (spec 000 section 9.15).
type dnsIn struct {
	DurationSeconds int `json:"duration_seconds,omitempty" default:"10"`
	PID             int `json:"pid,omitempty" jsonschema:"only this pid"`
}

type dnsRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started"`
	PID       uint32  `json:"pid"`
	Comm      string  `json:"comm"`
	Function  string  `json:"function"`
	Host      string  `json:"host"`
	LatencyMS float64 `json:"latency_ms"`
	OK        bool    `json:"ok"`
}

// dnsHost is what one process looked up of one name over the window,
// counted in the kernel.
type dnsHost struct {
	Host   string            `json:"host"`
	PID    uint32            `json:"pid"`
	Comm   string            `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	Count  uint64            `json:"count"`
	Failed uint64            `json:"failed"`
	Errors map[string]uint64 `json:"errors,omitempty" jsonschema:"failed lookups by error: getaddrinfo's EAI_NONAME, EAI_AGAIN, ...; NULL for gethostbyname"`
	AvgMS  float64           `json:"avg_ms"`
	MaxMS  float64           `json:"max_ms"`
}

type latencyStats struct {
	P50 float64 `json:"p50"`
	P95 float64 `json:"p95"`
	P99 float64 `json:"p99"`
	Max float64 `json:"max"`
}

// dnsOut has two views: the C library's lookups (the top-level fields: what
// programs asked for and waited on, /etc/hosts included) and the queries on
// the wire (what went to DNS servers, from any resolver, and how they
// answered).
type dnsOut struct {
	Mechanism   string        `json:"mechanism" jsonschema:"the C library's functions probed; empty when there is no C library to probe"`
	Total       uint64        `json:"total" jsonschema:"C library lookups"`
	Failed      uint64        `json:"failed"`
	Lost        uint64        `json:"lost" jsonschema:"records a full ring buffer dropped; the counts include them"`
	NotInTables uint64        `json:"not_in_tables" jsonschema:"lookups in no count here: the kernel's table (8192 rows) was full"`
	LatencyMS   *latencyStats `json:"latency_ms,omitempty" jsonschema:"over every lookup whose record was read"`
	ByHost      []dnsHost     `json:"by_host" jsonschema:"every lookup counted by name and process, most first"`
	ByHostOf    listed        `json:"by_host_shown" jsonschema:"by_host: N of M shown, and which"`
	Lookups     []dnsRow      `json:"lookups" jsonschema:"records of lookups"`
	LookupsOf   listed        `json:"lookups_shown" jsonschema:"lookups: N of M shown, and which"`
	Wire        dnsWire       `json:"wire" jsonschema:"DNS queries sent over UDP to port 53 by any resolver (Go's, musl's, the C library's), with their answers"`
}

func (s *Set) dnsLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_dns_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "DNS lookup latency (eBPF)",
		Description: "DNS latency by name and process: libc lookups (uprobes) and every UDP port 53 query with server, rcode and latency.",
		Timeout:     45 * time.Second,
	}, s.handleDNS).WithRange("duration_seconds", 1, 30)
}

func (s *Set) handleDNS(ctx context.Context, call *tool.Call, in dnsIn) (dnsOut, error) {
	if err := s.preflight(""); err != nil {
		return dnsOut{}, err
	}
	d := seconds(in.DurationSeconds, 10)
	pid := uint32(max(in.PID, 0))
	progs := together(call.Elapsed(ctx, d, "tracing DNS lookups"), 2)
	start := clock()
	wireCtx, stopWire := context.WithCancel(ctx)
	defer stopWire()
	var wg sync.WaitGroup
	wire := newCollectWire(s.host, start)
	var wireRes bpfprog.DNSWireResult
	var wireErr error
	wg.Go(func() {
		wireRes, wireErr = bpfprog.DNSWire(wireCtx, d, pid, progs[1], wire.add)
		if wireErr != nil {
			progs[1](0) // so the C library's trace still reports it is attached
		}
	})
	libc := newCollectLookups(start)
	res, err := bpfprog.DNSLatency(ctx, s.host, d, pid, progs[0], libc.add)
	libcRan := err == nil
	switch {
	case errors.Is(err, bpfprog.ErrNoLibc):
		progs[0](0) // nothing to attach: the wire trace goes on alone
		call.Warn("%v: only the queries on the wire are traced", err)
		err = nil
	case errors.Is(err, fs.ErrPermission):
		// A uprobe is a perf event on a file, which this kernel lets
		// only CAP_SYS_ADMIN create (a systemd unit without it, say);
		// the wire trace needs only what every eBPF tool needs.
		progs[0](0)
		call.Warn("the C library's lookups cannot be traced here (%v; uprobes need CAP_SYS_ADMIN): only the queries on the wire are traced", err)
		err = nil
	}
	if err != nil {
		stopWire()
	}
	wg.Wait()
	if err == nil && ctx.Err() == nil && wireErr != nil {
		if !libcRan { // neither trace ran
			err = wireErr
		} else {
			call.Warn("the trace of DNS queries on the wire failed, so wire is empty: %v", wireErr)
		}
	}
	if err != nil {
		return dnsOut{}, tool.Failed(err)
	}
	out := dnsOut{Mechanism: res.Mechanism, Lost: res.Lost, NotInTables: res.Unkeyed}
	hosts := hostTable(s.host, res)
	for _, h := range hosts {
		out.Total += h.Count
		out.Failed += h.Failed
	}
	out.ByHost = hosts[:min(tableRows, len(hosts))]
	out.Lookups, out.LatencyMS = libc.result()
	wireRecords, wireTables := wire.result(&out.Wire, wireRes)
	fitAnswer(&out, call.DataBudget(),
		append([]cut{spread(&out.Lookups, int(out.Total), &out.LookupsOf)}, wireRecords...),
		append([]cut{head(&out.ByHost, len(hosts), "count", &out.ByHostOf)}, wireTables...))
	return out, nil
}

// hostTable turns the kernel's counts (one per process, function, result
// and name) into a row per name and process, most lookups first.
func hostTable(host *hostinfo.Host, res bpfprog.DNSResult) []dnsHost {
	type key struct {
		host string
		pid  uint32
	}
	rows := map[key]*dnsHost{}
	for _, h := range res.Hosts {
		r := rows[key{h.Host, h.PID}]
		if r == nil {
			r = &dnsHost{Host: h.Host, PID: h.PID, Comm: res.Names.Of(host, h.PID)}
			rows[key{h.Host, h.PID}] = r
		}
		r.Count += h.Count
		r.AvgMS += ms(h.Total)
		r.MaxMS = max(r.MaxMS, ms(h.Max))
		if h.Failed {
			r.Failed += h.Count
			if r.Errors == nil {
				r.Errors = map[string]uint64{}
			}
			r.Errors[lookupError(h)] += h.Count
		}
	}
	out := make([]dnsHost, 0, len(rows))
	for _, r := range rows {
		r.AvgMS = figures.Round3(r.AvgMS / float64(max(r.Count, 1)))
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b dnsHost) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Host, b.Host), cmp.Compare(a.PID, b.PID))
	})
	return out
}

// eaiNames are glibc's getaddrinfo errors (netdb.h).
var eaiNames = map[int32]string{-1: "EAI_BADFLAGS", -2: "EAI_NONAME", -3: "EAI_AGAIN", -4: "EAI_FAIL", -5: "EAI_NODATA",
	-6: "EAI_FAMILY", -7: "EAI_SOCKTYPE", -8: "EAI_SERVICE", -9: "EAI_ADDRFAMILY", -10: "EAI_MEMORY", -11: "EAI_SYSTEM", -12: "EAI_OVERFLOW"}

// lookupError names why a lookup failed.
func lookupError(h bpfprog.HostCount) string {
	if h.Func != "getaddrinfo" {
		return "NULL"
	}
	if n, ok := eaiNames[h.Code]; ok {
		return n
	}
	return fmt.Sprintf("error %d", h.Code)
}

// maxLatencies bounds the latencies kept for percentiles.
const maxLatencies = 100_000

// collectLookups gathers the C library's lookup records: a sample to list
// and their latencies.
type collectLookups struct {
	start time.Duration
	rows  *sample[dnsRow]
	lat   []float64
}

func newCollectLookups(start time.Duration) *collectLookups {
	return &collectLookups{start: start, rows: newSample[dnsRow](maxRecords)}
}

func (c *collectLookups) add(l bpfprog.DNSLookup) {
	ok := l.Ret == 0
	if l.Func != "getaddrinfo" {
		ok = l.Ret != 0 // gethostbyname returns a pointer, NULL on failure
	}
	v := ms(l.Latency)
	if len(c.lat) < maxLatencies {
		c.lat = append(c.lat, v)
	}
	c.rows.add(dnsRow{Time: relSeconds(l.Time, c.start), PID: l.PID, Comm: l.Comm, Function: l.Func, Host: l.Host, LatencyMS: v, OK: ok})
}

func (c *collectLookups) result() ([]dnsRow, *latencyStats) {
	rows := c.rows.items
	slices.SortStableFunc(rows, func(a, b dnsRow) int { return cmp.Compare(a.Time, b.Time) })
	if rows == nil {
		rows = []dnsRow{}
	}
	if len(c.lat) == 0 {
		return rows, nil
	}
	return rows, exactPercentiles(c.lat)
}
