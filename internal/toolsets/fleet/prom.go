package fleet

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"

	"github.com/prometheus/common/model"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// prom asks Prometheus's HTTP API about the hostmcp job: its targets
// (every configured endpoint, answering or not) and PromQL over the
// series each hostmcp exports (internal/server's health metrics).
type prom struct {
	api *promAPI
	url string
	job string
}

// prometheus is the configured Prometheus, or a FEATURE_DISABLED error
// naming what needs it.
func (s *Set) prometheus(what string) (*prom, error) {
	if s.cfg.PrometheusURL == "" {
		return nil, tool.Errorf(tool.FeatureDisabled, "%s needs Prometheus, and [fleet] prometheus_url is not set", what).
			WithSuggestion("Name the hosts to ask in fleet_call's hosts (from [fleet] hosts), or ask the operator to set [fleet] prometheus_url.")
	}
	// hostTransport without a token: Prometheus's answers are bounded as a
	// host's are, and it is asked without credentials.
	// A redirect is not followed either, as for hosts.
	base, err := url.Parse(s.cfg.PrometheusURL)
	if err != nil {
		return nil, tool.Wrap(tool.Internal, err, "Prometheus client for %s: %v", s.cfg.PrometheusURL, err)
	}
	client := &http.Client{Transport: &hostTransport{base: s.transport.get()}, CheckRedirect: noRedirect}
	return &prom{api: &promAPI{base: base, client: client}, url: s.cfg.PrometheusURL, job: s.cfg.Job}, nil
}

// sel is a selector of metric in the job; the job's characters need no
// escaping (config.FleetConf validates them).
func (p *prom) sel(metric string) string { return fmt.Sprintf("%s{job=%q}", metric, p.job) }

// promTarget is one of the job's scrape targets.
type promTarget struct {
	Instance  string // the instance label
	ScrapeURL string // where Prometheus scrapes it: its address and scheme
	LastError string
}

// promTargets is the data of /api/v1/targets, as far as fleet reads it.
type promTargets struct {
	Active []struct {
		Labels    map[string]string `json:"labels"`
		ScrapeURL string            `json:"scrapeUrl"`
		LastError string            `json:"lastError"`
	} `json:"activeTargets"`
}

// targets lists the job's active targets, those that answer and those that
// do not.
func (p *prom) targets(ctx context.Context) ([]promTarget, error) {
	var res promTargets
	if err := p.api.get(ctx, "/api/v1/targets", &res); err != nil {
		return nil, p.failed(err)
	}
	var out []promTarget
	for _, a := range res.Active {
		if a.Labels[model.JobLabel] != p.job {
			continue
		}
		out = append(out, promTarget{Instance: a.Labels[model.InstanceLabel], ScrapeURL: a.ScrapeURL, LastError: a.LastError})
	}
	return out, nil
}

// vector runs an instant query at t.
func (p *prom) vector(ctx context.Context, q string, t time.Time) (model.Vector, error) {
	var vec model.Vector
	got, err := p.api.query(ctx, "/api/v1/query", url.Values{"query": {q}, "time": {promTime(t)}}, model.ValVector.String(), &vec)
	if err != nil {
		return nil, p.failed(err)
	}
	if got != model.ValVector.String() {
		return nil, tool.Errorf(tool.Internal, "Prometheus answered %s with a %s, not a vector", q, got)
	}
	return vec, nil
}

// promRange is the span and resolution of a range query.
type promRange struct {
	Start, End time.Time
	Step       time.Duration
}

// matrix runs a range query.
func (p *prom) matrix(ctx context.Context, q string, r promRange) (model.Matrix, error) {
	args := url.Values{"query": {q}, "start": {promTime(r.Start)}, "end": {promTime(r.End)},
		"step": {strconv.FormatFloat(r.Step.Seconds(), 'f', -1, 64)}}
	var m model.Matrix
	got, err := p.api.query(ctx, "/api/v1/query_range", args, model.ValMatrix.String(), &m)
	if err != nil {
		return nil, p.failed(err)
	}
	if got != model.ValMatrix.String() {
		return nil, tool.Errorf(tool.Internal, "Prometheus answered %s with a %s, not a matrix", q, got)
	}
	return m, nil
}

// failed tells a query Prometheus refused (a bug here) from a Prometheus
// that could not be asked.
func (p *prom) failed(err error) error {
	if apiErr, ok := errors.AsType[*promError](err); ok && (apiErr.Type == "bad_data" || apiErr.Type == "execution") {
		return tool.Wrap(tool.Internal, err, "Prometheus at %s refused a query: %v", p.url, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err // the runner reports the call's timeout or cancellation
	}
	return tool.Wrap(tool.HostUnreachable, err, "Prometheus at %s did not answer: %s", p.url, tool.Clip(err.Error())).
		WithSuggestion("Check that Prometheus runs at [fleet] prometheus_url; meanwhile fleet_call reaches hosts named in its hosts argument.")
}
