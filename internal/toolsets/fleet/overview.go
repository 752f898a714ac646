package fleet

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hostmcp/hostmcp/internal/tool"
)

type overviewIn struct {
	Limit int `json:"limit,omitempty" default:"50"`
}

// overviewRow is one host.
type overviewRow struct {
	Host         string `json:"host" jsonschema:"the hostname it reports; empty if it never answered a scrape"`
	Instance     string `json:"instance" jsonschema:"its address in Prometheus (host:port)"`
	Status       string `json:"status" jsonschema:"critical, warning, ok, or unreachable (scrape failing or no recent sample)"`
	TopSuspicion string `json:"top_suspicion,omitempty" jsonschema:"its worst resource and USE dimension with the judged value, when warning or critical"`
	Since        string `json:"since,omitempty" jsonschema:"when this status began, RFC 3339; looks back 24 h at most; empty if Prometheus has no sample of it in that time"`
	Reason       string `json:"reason,omitempty" jsonschema:"why it is unreachable"`
}

type overviewOut struct {
	Hosts  []overviewRow  `json:"hosts" jsonschema:"worst first: critical, warning, unreachable, ok"`
	Counts map[string]int `json:"counts" jsonschema:"hosts per status, all of them"`
	More   int            `json:"more,omitempty" jsonschema:"hosts left out by limit (the healthiest)"`
	// Unmonitored are static hosts the job does not scrape.
	Unmonitored []string `json:"unmonitored,omitempty" jsonschema:"[fleet] hosts Prometheus does not scrape in the job: fleet_call reaches them, this cannot rank them"`
	At          string   `json:"at" jsonschema:"when the statuses were read, RFC 3339"`
}

func (s *Set) overview() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fleet_overview",
		Kind:        tool.ReadOnly,
		OpenWorld:   true,
		Title:       "Rank the fleet's hosts by health",
		Description: "One row per host of the fleet, worst first, from Prometheus: status (critical, warning, unreachable, ok), worst USE dimension, since when. Then ask chosen hosts with fleet_call.",
		Timeout:     30 * time.Second,
	}, s.handleOverview).WithRange("limit", 1, 1000)
}

// The look-backs of since: the last hour at the resolution of a scrape
// interval, then the last day for statuses older than that.
var sinceWindows = []struct{ span, step time.Duration }{{time.Hour, 15 * time.Second}, {24 * time.Hour, 5 * time.Minute}}

func (s *Set) handleOverview(ctx context.Context, _ *tool.Call, in overviewIn) (overviewOut, error) {
	p, err := s.prometheus("fleet_overview")
	if err != nil {
		return overviewOut{}, err
	}
	rows, known, err := s.rank(ctx, p)
	if err != nil {
		return overviewOut{}, err
	}
	out := overviewOut{Hosts: []overviewRow{}, Counts: map[string]int{"critical": 0, "warning": 0, "unreachable": 0, "ok": 0},
		At: time.Now().UTC().Format(time.RFC3339)}
	for _, h := range known {
		if !h.FromPrometheus {
			out.Unmonitored = append(out.Unmonitored, h.Base)
		}
	}
	for _, r := range rows {
		out.Counts[r.Status]++
	}
	limit := cmp.Or(in.Limit, 50)
	out.More = max(0, len(rows)-limit)
	out.Hosts = append(out.Hosts, rows[:min(len(rows), limit)]...)
	return out, nil
}

// rank reads every target of the job's status, worst dimension and since
// from Prometheus, and sorts them worst first; it also returns every known
// host, the static ones the job does not scrape included.
func (s *Set) rank(ctx context.Context, p *prom) ([]overviewRow, []host, error) {
	known, err := s.knownHosts(ctx, p)
	if err != nil {
		return nil, nil, err
	}
	now := time.Now().Truncate(time.Second)
	runs := map[string]run{}
	for i, w := range sinceWindows {
		m, err := p.matrix(ctx, statusQuery(p), promRange{Start: now.Add(-w.span), End: now, Step: w.step})
		if err != nil {
			return nil, nil, err
		}
		points := map[string][]model.SamplePair{}
		for _, ss := range m {
			points[string(ss.Metric[model.InstanceLabel])] = ss.Values
		}
		again := false
		for _, h := range known {
			if r, seen := runs[h.Instance]; i > 0 && seen && !r.Whole {
				continue // its status began within the shorter window
			}
			r := currentRun(points[h.Instance], now.Add(-w.span), now, w.step)
			if i > 0 {
				r.Status = runs[h.Instance].Status // the finer query's status stands
			}
			runs[h.Instance] = r
			again = again || r.Whole
		}
		if !again {
			break
		}
	}
	statuses, err := p.vector(ctx, p.sel("hostmcp_health_status"), now)
	if err != nil {
		return nil, nil, err
	}
	values, err := p.vector(ctx, p.sel("hostmcp_health_value"), now)
	if err != nil {
		return nil, nil, err
	}
	worst := worstDimensions(statuses, values)

	var rows []overviewRow
	var order []suspicion // beside rows, for sorting
	for _, h := range known {
		if !h.FromPrometheus {
			continue
		}
		r := runs[h.Instance]
		row := overviewRow{Host: h.Name, Instance: h.Instance, Status: r.Status.String()}
		if r.Seen {
			row.Since = r.Since.UTC().Format(time.RFC3339)
		}
		w := worst[h.Instance]
		switch {
		case r.Status == unreachable && h.LastError != "":
			row.Reason = "scrape failing: " + tool.Clip(h.LastError)
		case r.Status == unreachable:
			row.Reason = "no health sample in the last 5 minutes"
		case r.Status != ok && w.Resource != "":
			row.TopSuspicion = w.String()
		}
		if r.Status == unreachable {
			w = suspicion{}
		}
		w.Level = r.Status
		rows = append(rows, row)
		order = append(order, w)
	}
	idx := make([]int, len(rows))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := order[a], order[b]
		return cmp.Or(cmp.Compare(x.Level.order(), y.Level.order()), cmp.Compare(y.Count, x.Count), cmp.Compare(y.Sum, x.Sum),
			cmp.Compare(rows[a].Host, rows[b].Host), cmp.Compare(rows[a].Instance, rows[b].Instance))
	})
	sorted := make([]overviewRow, len(rows))
	for i, j := range idx {
		sorted[i] = rows[j]
	}
	return sorted, known, nil
}
