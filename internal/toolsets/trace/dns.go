package trace

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/ebpf"
	"github.com/hostmcp/hostmcp/internal/num"
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

type dnsHost struct {
	Host   string  `json:"host"`
	Count  int     `json:"count"`
	Failed int     `json:"failed"`
	AvgMS  float64 `json:"avg_ms"`
	MaxMS  float64 `json:"max_ms"`
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
	Mechanism string        `json:"mechanism" jsonschema:"the C library's functions probed; empty when there is no C library to probe"`
	Total     int           `json:"total" jsonschema:"C library lookups"`
	Failed    int           `json:"failed"`
	Lost      uint64        `json:"lost"`
	LatencyMS *latencyStats `json:"latency_ms,omitempty" jsonschema:"over every lookup seen"`
	ByHost    []dnsHost     `json:"by_host" jsonschema:"the 20 names looked up most"`
	Lookups   []dnsRow      `json:"lookups" jsonschema:"in order, at most 500"`
	Wire      dnsWire       `json:"wire" jsonschema:"DNS queries sent over UDP to port 53 by any resolver (Go's, musl's, the C library's), with their answers"`
}

func (s *Set) dnsLatency() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_dns_latency",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "DNS lookup latency (eBPF)",
		Description: "DNS latency: C library lookups by uprobes, and every UDP port 53 query with server, rcode and latency.",
		Timeout:     45 * time.Second,
	}, s.handleDNS).WithRange("duration_seconds", 1, 30)
}

func (s *Set) handleDNS(ctx context.Context, call *tool.Call, in dnsIn) (dnsOut, error) {
	if err := preflight(""); err != nil {
		return dnsOut{}, err
	}
	d := seconds(in.DurationSeconds, 10)
	pid := uint32(max(in.PID, 0))
	progs := together(progress(ctx, call, d, "tracing DNS lookups"), 2)
	start := clock()
	wireCtx, stopWire := context.WithCancel(ctx)
	defer stopWire()
	var wg sync.WaitGroup
	wire := &collectWire{start: start}
	var left []ebpf.DNSQuery
	var wireLost uint64
	var wireErr error
	wg.Go(func() {
		left, wireLost, wireErr = ebpf.DNSWire(wireCtx, d, pid, progs[1], wire.add)
		if wireErr != nil {
			progs[1](0) // so the C library's trace still reports it is attached
		}
	})
	libc := &collectLookups{start: start, hosts: map[string]*dnsHost{}}
	mech, lost, err := ebpf.DNSLatency(ctx, d, pid, progs[0], libc.add)
	if errors.Is(err, ebpf.ErrNoLibc) {
		progs[0](0) // nothing to attach: the wire trace goes on alone
		call.Warn("%v: only the queries on the wire are traced", err)
		mech, err = "", nil
	}
	if err != nil {
		stopWire()
	}
	wg.Wait()
	if err == nil && ctx.Err() == nil && wireErr != nil {
		if mech == "" { // neither trace ran
			err = wireErr
		} else {
			call.Warn("the trace of DNS queries on the wire failed, so wire is empty: %v", wireErr)
		}
	}
	if err != nil {
		return dnsOut{}, failed(err)
	}
	out := libc.result()
	out.Mechanism, out.Lost = mech, lost
	out.Wire = wire.result(left, wireLost)
	return out, nil
}

// collectLookups gathers the C library's lookups.
type collectLookups struct {
	start time.Duration
	out   dnsOut
	lat   []float64
	hosts map[string]*dnsHost
}

func (c *collectLookups) add(l ebpf.DNSLookup) {
	ok := l.Ret == 0
	if l.Func != "getaddrinfo" {
		ok = l.Ret != 0 // gethostbyname returns a pointer, NULL on failure
	}
	v := ms(l.Latency)
	c.out.Total++
	c.lat = append(c.lat, v)
	h := c.hosts[l.Host]
	if h == nil {
		h = &dnsHost{Host: l.Host}
		c.hosts[l.Host] = h
	}
	h.Count++
	h.AvgMS += v
	h.MaxMS = max(h.MaxMS, v)
	if !ok {
		c.out.Failed++
		h.Failed++
	}
	if len(c.out.Lookups) < maxRecords {
		c.out.Lookups = append(c.out.Lookups, dnsRow{Time: relSeconds(l.Time, c.start), PID: l.PID, Comm: l.Comm, Function: l.Func, Host: l.Host, LatencyMS: v, OK: ok})
	}
}

func (c *collectLookups) result() dnsOut {
	out := c.out
	if out.Lookups == nil {
		out.Lookups = []dnsRow{}
	}
	out.ByHost = []dnsHost{}
	if len(c.lat) > 0 {
		out.LatencyMS = exactPercentiles(c.lat)
	}
	for _, h := range c.hosts {
		h.AvgMS = num.Round3(h.AvgMS / float64(h.Count))
		out.ByHost = append(out.ByHost, *h)
	}
	slices.SortFunc(out.ByHost, func(a, b dnsHost) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Host, b.Host)) })
	out.ByHost = out.ByHost[:min(20, len(out.ByHost))]
	return out
}
