package trace

import (
	"cmp"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// dnsWire is perf_dns_latency's view of the queries on the wire.
type dnsWire struct {
	Mechanism   string        `json:"mechanism"`
	Total       uint64        `json:"total" jsonschema:"queries sent over UDP to port 53"`
	Unanswered  uint64        `json:"unanswered" jsonschema:"queries sent with no answer read by the end of the trace: lost, retried, timed out, or still waiting"`
	Errors      uint64        `json:"errors" jsonschema:"answers whose rcode is not NOERROR (NXDOMAIN, SERVFAIL, REFUSED, ...)"`
	Lost        uint64        `json:"lost" jsonschema:"answer records a full ring buffer dropped: in the totals and by_process, not in by_name"`
	NotInTables uint64        `json:"not_in_tables" jsonschema:"queries and answers in no count here: the kernel's table (8192 processes) was full"`
	LatencyMS   *latencyStats `json:"latency_ms,omitempty" jsonschema:"over the answered queries whose records were read"`
	ByProcess   []wireProcess `json:"by_process" jsonschema:"every query counted by process, most first"`
	ByProcessOf listed        `json:"by_process_shown" jsonschema:"by_process: N of M shown, and which"`
	ByName      []wireName    `json:"by_name" jsonschema:"queries by name, from the records read (see lost), most first"`
	ByNameOf    listed        `json:"by_name_shown" jsonschema:"by_name: N of M shown, and which"`
	Queries     []wireRow     `json:"queries" jsonschema:"records of queries, unanswered ones included"`
	QueriesOf   listed        `json:"queries_shown" jsonschema:"queries: N of M shown, and which"`
}

type wireProcess struct {
	PID        uint32  `json:"pid"`
	Comm       string  `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	Sent       uint64  `json:"sent"`
	Unanswered uint64  `json:"unanswered"`
	Errors     uint64  `json:"errors" jsonschema:"answers whose rcode is not NOERROR"`
	AvgMS      float64 `json:"avg_ms" jsonschema:"over the answered queries"`
	MaxMS      float64 `json:"max_ms"`
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

// collectWire gathers answered queries' records as the trace reads them:
// a sample to list, and per name counts and latencies.
type collectWire struct {
	host  *hostinfo.Host // names processes the trace could not
	start time.Duration
	rows  *sample[wireRow]
	names map[string]*wireName
	lat   []float64
}

func newCollectWire(host *hostinfo.Host, start time.Duration) *collectWire {
	return &collectWire{host: host, start: start, rows: newSample[wireRow](maxRecords), names: map[string]*wireName{}}
}

// maxNames bounds the names collectWire counts.
const maxNames = 100_000

func (c *collectWire) add(q bpfprog.DNSQuery) {
	n := c.names[q.Name]
	if n == nil && len(c.names) < maxNames {
		n = &wireName{Name: q.Name}
		c.names[q.Name] = n
	}
	row := wireRow{Time: relSeconds(q.Time, c.start), PID: q.PID, Comm: q.Comm, Name: q.Name, Type: q.Type, Server: q.Server, Answered: q.Answered}
	if n != nil {
		n.Count++
	}
	if q.Answered {
		v := ms(q.Latency)
		if len(c.lat) < maxLatencies {
			c.lat = append(c.lat, v)
		}
		row.Rcode, row.Answers, row.LatencyMS = q.Rcode, q.Answers, v
		if n != nil {
			n.AvgMS += v
			n.MaxMS = max(n.MaxMS, v)
			if q.Rcode != "NOERROR" {
				n.Errors++
			}
		}
	} else if n != nil {
		n.Unanswered++
	}
	c.rows.add(row)
}

// result fills w with the queries left unanswered and the kernel's counts,
// and returns the cuts fitAnswer may make to its lists.
func (c *collectWire) result(w *dnsWire, res bpfprog.DNSWireResult) (records, tables []cut) {
	for _, q := range res.Unanswered {
		c.add(q)
	}
	*w = dnsWire{Mechanism: bpfprog.DNSWireMechanism, Lost: res.Lost, NotInTables: res.Unkeyed}
	procs := make([]wireProcess, 0, len(res.Procs))
	for _, p := range res.Procs {
		row := wireProcess{PID: p.PID, Comm: res.Names.Of(c.host, p.PID), Sent: p.Sent, Unanswered: p.Sent - min(p.Answered, p.Sent), Errors: p.Errors,
			AvgMS: figures.Round3(ms(p.TotalLatency) / float64(max(p.Answered, 1))), MaxMS: ms(p.MaxLatency)}
		w.Total += row.Sent
		w.Unanswered += row.Unanswered
		w.Errors += row.Errors
		procs = append(procs, row)
	}
	slices.SortFunc(procs, func(a, b wireProcess) int { return cmp.Or(cmp.Compare(b.Sent, a.Sent), cmp.Compare(a.PID, b.PID)) })
	w.ByProcess = procs[:min(tableRows, len(procs))]
	if len(c.lat) > 0 {
		w.LatencyMS = exactPercentiles(c.lat)
	}
	names := make([]wireName, 0, len(c.names))
	for _, n := range c.names {
		if answered := n.Count - n.Unanswered; answered > 0 {
			n.AvgMS = figures.Round3(n.AvgMS / float64(answered))
		}
		names = append(names, *n)
	}
	slices.SortFunc(names, func(a, b wireName) int { return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Name, b.Name)) })
	w.ByName = names[:min(tableRows, len(names))]
	w.Queries = c.rows.items
	slices.SortStableFunc(w.Queries, func(a, b wireRow) int { return cmp.Compare(a.Time, b.Time) })
	if w.Queries == nil {
		w.Queries = []wireRow{}
	}
	return []cut{spread(&w.Queries, int(w.Total), &w.QueriesOf)},
		[]cut{head(&w.ByProcess, len(procs), "queries sent", &w.ByProcessOf), head(&w.ByName, len(names), "count", &w.ByNameOf)}
}
