package health

import (
	"fmt"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Baseline is a snapshot kept under a name, to tell "always like this"
// from "started ten minutes ago". It keeps the readings, not their verdict:
// a comparison judges then and now with the same thresholds.
type Baseline struct {
	Name     string
	Saved    time.Time
	Tool     string // the tool that saved it
	Host     hostinfo.Identity
	Snapshot hostinfo.PerfSnapshot
}

// Comparison is what changed since a baseline: per resource and dimension
// the value then and now, and the suspicions that are new, gone or still
// there.
type Comparison struct {
	Name     string    `json:"name"`
	SavedAt  time.Time `json:"saved_at"`
	Age      string    `json:"age" jsonschema:"how long before this call it was saved, e.g. 3 h 5 min"`
	SavedBy  string    `json:"saved_by" jsonschema:"the tool that saved it"`
	Hostname string    `json:"hostname"`
	// SameBoot is false after a reboot: shares and rates still compare,
	// counts since boot do not.
	SameBoot   bool     `json:"same_boot" jsonschema:"false when the baseline is from another boot (or host): still comparable, but counts since boot restarted"`
	IntervalMS int64    `json:"interval_ms" jsonschema:"the baseline's own sample window"`
	Notes      []string `json:"notes,omitempty"`
	StatusThen string   `json:"status_then"`
	StatusNow  string   `json:"status_now"`
	Summary    string   `json:"summary"`
	// Resources has a row per resource and dimension, showing the metric
	// judged worst then or now, so a stall that cleared shows too.
	Resources []Delta `json:"resources"`
	// New are the suspicions of now that the baseline did not have, with
	// their evidence; Gone those it had that are over; Persisting those in
	// both, with their severity then and now.
	New        []Suspicion `json:"new"`
	Gone       []Change    `json:"gone"`
	Persisting []Change    `json:"persisting"`
}

// Delta is one resource dimension then and now. Then or Now is null where
// that side did not measure the metric (a cgroup that did not exist yet).
type Delta struct {
	Resource   string   `json:"resource"`
	Dimension  string   `json:"dimension"`
	Metric     string   `json:"metric"`
	Subject    string   `json:"subject,omitempty"`
	Then       *float64 `json:"then"`
	Now        *float64 `json:"now"`
	Delta      *float64 `json:"delta,omitempty" jsonschema:"now minus then"`
	StatusThen string   `json:"status_then"`
	StatusNow  string   `json:"status_now"`
}

// Change is a suspicion of the baseline followed to now.
type Change struct {
	Resource     string   `json:"resource"`
	Dimension    string   `json:"dimension"`
	Metric       string   `json:"metric"`
	Subject      string   `json:"subject,omitempty"`
	Then         float64  `json:"then"`
	Now          *float64 `json:"now" jsonschema:"null when not measured now"`
	SeverityThen string   `json:"severity_then"`
	SeverityNow  string   `json:"severity_now" jsonschema:"healthy once it is over; unknown when not measured now"`
	Detail       string   `json:"detail" jsonschema:"the latest evidence: now's where measured, else the baseline's"`
}

// Compare judges the baseline's snapshot and now's with the same
// thresholds and says what changed. here is the host now is read from;
// at is now's time, for the baseline's age.
func Compare(b Baseline, now hostinfo.PerfSnapshot, here hostinfo.Identity, at time.Time) Comparison {
	useThen, then := analyze(b.Snapshot)
	useNow, cur := analyze(now)
	c := Comparison{
		Name: b.Name, SavedAt: b.Saved.UTC(), Age: age(at.Sub(b.Saved)), SavedBy: b.Tool, Hostname: b.Host.Hostname,
		SameBoot: b.Host.BootID != "" && b.Host.BootID == here.BootID && b.Host.Hostname == here.Hostname, IntervalMS: b.Snapshot.IntervalMS,
		StatusThen: useThen.Summary.Status, StatusNow: useNow.Summary.Status,
		New: []Suspicion{}, Gone: []Change{}, Persisting: []Change{},
	}
	c.Notes = notes(b, now, here, at)
	thenByKey, nowByKey := index(then), index(cur)
	c.Resources = deltas(useThen.Resources, useNow.Resources, thenByKey, nowByKey)
	for _, s := range useNow.Summary.TopSuspicions {
		if f, ok := thenByKey[key(s)]; !ok || f.ok {
			c.New = append(c.New, s)
		}
	}
	for _, s := range useThen.Summary.TopSuspicions {
		ch := Change{Resource: s.Resource, Dimension: s.Dimension, Metric: s.Metric, Subject: s.Subject,
			Then: s.Value, SeverityThen: s.Severity, SeverityNow: "unknown", Detail: s.Detail}
		f, measured := nowByKey[key(s)]
		if measured {
			v := f.Value
			ch.Now, ch.SeverityNow, ch.Detail = &v, f.Severity, f.Detail
		}
		if measured && !f.ok {
			c.Persisting = append(c.Persisting, ch)
		} else {
			c.Gone = append(c.Gone, ch)
		}
	}
	c.Summary = c.summary()
	return c
}

// suspicionKey tells one check from another across two snapshots.
type suspicionKey struct{ resource, dimension, metric, subject string }

func key(s Suspicion) suspicionKey {
	return suspicionKey{s.Resource, s.Dimension, s.Metric, s.Subject}
}

// index maps each check to its finding, the worst where a key repeats (a
// file system mounted twice).
func index(fs []finding) map[suspicionKey]finding {
	m := make(map[suspicionKey]finding, len(fs))
	for _, f := range fs {
		if f.Metric == "" {
			continue
		}
		k := key(f.Suspicion)
		if old, ok := m[k]; !ok || rank(f.Severity) > rank(old.Severity) {
			m[k] = f
		}
	}
	return m
}

// deltas has a row per resource and dimension: the metric judged worst on
// the worse side (now's when they are equal), with its value on each side.
func deltas(then, now UseResources, thenBy, nowBy map[suspicionKey]finding) []Delta {
	type side struct{ metric, subject, status string }
	dims := func(r UseResources) [][3]side {
		row := func(m UseMetrics) [3]side {
			return [3]side{{m.Utilization.Metric, m.Utilization.Subject, m.Utilization.Status},
				{m.Saturation.Metric, m.Saturation.Subject, m.Saturation.Status},
				{m.Errors.Metric, m.Errors.Subject, m.Errors.Status}}
		}
		return [][3]side{row(r.CPU), row(r.Memory), row(r.Disk), row(r.Network), row(r.Filesystem)}
	}
	resources := []string{"cpu", "memory", "disk", "network", "filesystem"}
	dimensions := []string{"utilization", "saturation", "errors"}
	t, n := dims(then), dims(now)
	out := []Delta{}
	for i, res := range resources {
		for j, dim := range dimensions {
			pick := n[i][j]
			if pick.metric == "" || rank(t[i][j].status) > rank(pick.status) && t[i][j].metric != "" {
				pick = t[i][j]
			}
			if pick.metric == "" {
				continue
			}
			k := suspicionKey{res, dim, pick.metric, pick.subject}
			d := Delta{Resource: res, Dimension: dim, Metric: pick.metric, Subject: pick.subject, StatusThen: t[i][j].status, StatusNow: n[i][j].status}
			if f, ok := thenBy[k]; ok {
				d.Then = &f.Value
			}
			if f, ok := nowBy[k]; ok {
				d.Now = &f.Value
			}
			if d.Then != nil && d.Now != nil {
				v := figures.Round2(*d.Now - *d.Then)
				d.Delta = &v
			}
			out = append(out, d)
		}
	}
	return out
}

// notes say what makes the comparison less than like for like.
func notes(b Baseline, now hostinfo.PerfSnapshot, here hostinfo.Identity, at time.Time) []string {
	var out []string
	switch {
	case b.Host.Hostname != here.Hostname:
		out = append(out, fmt.Sprintf("saved on host %q, and this is %q: the comparison is between two hosts", b.Host.Hostname, here.Hostname))
	case b.Host.BootID != here.BootID:
		out = append(out, "saved on an earlier boot: the host restarted since, so shares and rates compare but counts since boot (OOM kills since boot) restarted")
	}
	if b.Snapshot.IntervalMS != now.IntervalMS {
		out = append(out, fmt.Sprintf("the baseline was measured over %s and this over %s: the shorter window is the noisier", seconds(b.Snapshot.IntervalMS), seconds(now.IntervalMS)))
	}
	if at.Before(b.Saved) {
		out = append(out, "the baseline's time is after this call's: the clock was set back since")
	}
	return out
}

// summary is the comparison in one line: the age, the status then and now,
// and what is new and gone.
func (c *Comparison) summary() string {
	var b strings.Builder
	fmt.Fprintf(&b, "since baseline %q (saved %s ago", c.Name, c.Age)
	if !c.SameBoot {
		b.WriteString(", another boot")
	}
	fmt.Fprintf(&b, "): %s then, %s now", c.StatusThen, c.StatusNow)
	if len(c.New) > 0 {
		parts := make([]string, 0, 3)
		for _, s := range c.New[:min(3, len(c.New))] {
			parts = append(parts, fmt.Sprintf("%s %s %s", s.Severity, s.Resource, s.Dimension))
		}
		fmt.Fprintf(&b, "; %d new: %s", len(c.New), strings.Join(parts, ", "))
		if len(c.New) > 3 {
			b.WriteString(", ...")
		}
	} else {
		b.WriteString("; nothing new")
	}
	fmt.Fprintf(&b, "; %d gone, %d persisting", len(c.Gone), len(c.Persisting))
	return b.String()
}

// age says how long ago in the largest two units: "45 s", "12 min",
// "3 h 5 min", "2 d 4 h".
func age(d time.Duration) string {
	if d < 0 {
		d = 0
	}
	s := int64(d / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%d s", s)
	case s < 3600:
		return fmt.Sprintf("%d min", s/60)
	case s < 86400:
		if m := s % 3600 / 60; m > 0 {
			return fmt.Sprintf("%d h %d min", s/3600, m)
		}
		return fmt.Sprintf("%d h", s/3600)
	}
	if h := s % 86400 / 3600; h > 0 {
		return fmt.Sprintf("%d d %d h", s/86400, h)
	}
	return fmt.Sprintf("%d d", s/86400)
}

// BaselineResult is what a call that saved or compared a baseline adds to
// its answer.
type BaselineResult struct {
	Saved    *SavedBaseline `json:"saved,omitempty"`
	Compared *Comparison    `json:"compared,omitempty"`
}

// SavedBaseline says a reading was kept, and what the cap dropped for it.
type SavedBaseline struct {
	Name    string    `json:"name"`
	SavedAt time.Time `json:"saved_at"`
	Kept    int       `json:"kept" jsonschema:"baselines kept now; past the cap the oldest is dropped"`
	Dropped []string  `json:"dropped,omitempty" jsonschema:"the oldest baselines dropped to keep within the cap"`
}
