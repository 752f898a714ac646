package trace

import (
	"cmp"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/ebpf"
	"github.com/hostmcp/hostmcp/internal/num"
)

// dnsWire is perf_dns_latency's view of the queries on the wire.
type dnsWire struct {
	Mechanism  string        `json:"mechanism"`
	Total      int           `json:"total" jsonschema:"queries sent over UDP to port 53"`
	Unanswered int           `json:"unanswered" jsonschema:"queries with no answer read by the end of the trace: lost, timed out, or still waiting"`
	Errors     int           `json:"errors" jsonschema:"answers whose rcode is not NOERROR (NXDOMAIN, SERVFAIL, REFUSED, ...)"`
	Lost       uint64        `json:"lost" jsonschema:"answer records the kernel dropped because the ring buffer was full"`
	LatencyMS  *latencyStats `json:"latency_ms,omitempty" jsonschema:"over the answered queries"`
	ByName     []wireName    `json:"by_name" jsonschema:"the 20 names queried most"`
	Queries    []wireRow     `json:"queries" jsonschema:"by time sent, unanswered ones included, at most 500"`
}

type wireName struct {
	Name       string  `json:"name"`
	Count      int     `json:"count"`
	Errors     int     `json:"errors"`
	Unanswered int     `json:"unanswered"`
	AvgMS      float64 `json:"avg_ms" jsonschema:"over the answered queries"`
	MaxMS      float64 `json:"max_ms"`
}

type wireRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started, when the query was sent"`
	PID       uint32  `json:"pid"`
	Comm      string  `json:"comm"`
	Name      string  `json:"name"`
	Type      string  `json:"type" jsonschema:"A, AAAA, PTR, SRV, ..."`
	Server    string  `json:"server"`
	Answered  bool    `json:"answered"`
	Rcode     string  `json:"rcode,omitempty" jsonschema:"the answer's: NOERROR, NXDOMAIN, SERVFAIL, ..."`
	Answers   int     `json:"answers,omitempty" jsonschema:"records in the answer section"`
	LatencyMS float64 `json:"latency_ms,omitempty" jsonschema:"from sending the query to reading its answer"`
}

// collectWire gathers answered queries as the trace reads them.
type collectWire struct {
	start time.Duration
	all   []ebpf.DNSQuery
}

func (c *collectWire) add(q ebpf.DNSQuery) {
	if len(c.all) < 100_000 {
		c.all = append(c.all, q)
	}
}

// result adds the queries left unanswered and summarises.
func (c *collectWire) result(left []ebpf.DNSQuery, lost uint64) dnsWire {
	w := dnsWire{Mechanism: ebpf.DNSWireMechanism, Lost: lost, ByName: []wireName{}, Queries: []wireRow{}}
	all := append(c.all, left...)
	slices.SortStableFunc(all, func(a, b ebpf.DNSQuery) int { return cmp.Compare(a.Time, b.Time) })
	var lat []float64
	names := map[string]*wireName{}
	for _, q := range all {
		w.Total++
		n := names[q.Name]
		if n == nil {
			n = &wireName{Name: q.Name}
			names[q.Name] = n
		}
		n.Count++
		row := wireRow{Time: relSeconds(q.Time, c.start), PID: q.PID, Comm: q.Comm, Name: q.Name, Type: q.Type, Server: q.Server, Answered: q.Answered}
		if q.Answered {
			v := ms(q.Latency)
			lat = append(lat, v)
			n.AvgMS += v
			n.MaxMS = max(n.MaxMS, v)
			row.Rcode, row.Answers, row.LatencyMS = q.Rcode, q.Answers, v
			if q.Rcode != "NOERROR" {
				w.Errors++
				n.Errors++
			}
		} else {
			w.Unanswered++
			n.Unanswered++
		}
		if len(w.Queries) < maxRecords {
			w.Queries = append(w.Queries, row)
		}
	}
	if len(lat) > 0 {
		w.LatencyMS = exactPercentiles(lat)
	}
	for _, n := range names {
		if answered := n.Count - n.Unanswered; answered > 0 {
			n.AvgMS = num.Round3(n.AvgMS / float64(answered))
		}
		w.ByName = append(w.ByName, *n)
	}
	slices.SortFunc(w.ByName, func(a, b wireName) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	w.ByName = w.ByName[:min(20, len(w.ByName))]
	return w
}
