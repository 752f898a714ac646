package fleet

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/prometheus/client_golang/api"
	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// prom asks Prometheus's HTTP API about the hostmcp job: its targets
// (every configured endpoint, answering or not) and PromQL over the
// series each hostmcp exports (internal/server's health metrics).
type prom struct {
	api v1.API
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
	c, err := api.NewClient(api.Config{Address: s.cfg.PrometheusURL, RoundTripper: &hostTransport{base: s.transport}})
	if err != nil {
		return nil, tool.Wrap(tool.Internal, err, "Prometheus client for %s: %v", s.cfg.PrometheusURL, err)
	}
	return &prom{api: v1.NewAPI(c), url: s.cfg.PrometheusURL, job: s.cfg.Job}, nil
}

// sel is a selector of metric in the job; the job's characters need no
// escaping (config.FleetConf validates them).
func (p *prom) sel(metric string) string { return fmt.Sprintf("%s{job=%q}", metric, p.job) }

// promTarget is one of the job's scrape targets.
type promTarget struct {
	Instance  string // the instance label
	ScrapeURL string // where Prometheus scrapes it: its address and scheme
	Health    v1.HealthStatus
	LastError string
}

// targets lists the job's active targets, those that answer and those that
// do not.
func (p *prom) targets(ctx context.Context) ([]promTarget, error) {
	res, err := p.api.Targets(ctx)
	if err != nil {
		return nil, p.failed(err)
	}
	var out []promTarget
	for _, a := range res.Active {
		if string(a.Labels[model.JobLabel]) != p.job {
			continue
		}
		out = append(out, promTarget{Instance: string(a.Labels[model.InstanceLabel]), ScrapeURL: a.ScrapeURL, Health: a.Health, LastError: a.LastError})
	}
	return out, nil
}

// vector runs an instant query at t.
func (p *prom) vector(ctx context.Context, q string, t time.Time) (model.Vector, error) {
	v, _, _, err := p.api.Query(ctx, q, t)
	if err != nil {
		return nil, p.failed(err)
	}
	vec, ok := v.(model.Vector)
	if !ok {
		return nil, tool.Errorf(tool.Internal, "Prometheus answered %s with a %s, not a vector", q, v.Type())
	}
	return vec, nil
}

// matrix runs a range query.
func (p *prom) matrix(ctx context.Context, q string, r v1.Range) (model.Matrix, error) {
	v, _, _, err := p.api.QueryRange(ctx, q, r)
	if err != nil {
		return nil, p.failed(err)
	}
	m, ok := v.(model.Matrix)
	if !ok {
		return nil, tool.Errorf(tool.Internal, "Prometheus answered %s with a %s, not a matrix", q, v.Type())
	}
	return m, nil
}

// failed tells a query Prometheus refused (a bug here) from a Prometheus
// that could not be asked.
func (p *prom) failed(err error) error {
	var apiErr *v1.Error
	if errors.As(err, &apiErr) && (apiErr.Type == v1.ErrBadData || apiErr.Type == v1.ErrExec) {
		return tool.Wrap(tool.Internal, err, "Prometheus at %s refused a query: %v", p.url, err)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		return err // the runner reports the call's timeout or cancellation
	}
	return tool.Wrap(tool.HostUnreachable, err, "Prometheus at %s did not answer: %s", p.url, tool.Clip(err.Error())).
		WithSuggestion("Check that Prometheus runs at [fleet] prometheus_url; meanwhile fleet_call reaches hosts named in its hosts argument.")
}
