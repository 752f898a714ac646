// Package triage writes `hostmcp triage`: a short report of this machine for
// a person, built from the same tools an agent calls, so the report and the
// tools cannot disagree.
package triage

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Report is what the tools answered, decoded.
type Report struct {
	Info     *hostinfo.Info
	Snapshot *hostinfo.Snapshot
	Use      *health.UseCheck
	Problems []string // tools that failed, and why
	Warnings []string
}

// Collect calls the tools the report is built from. A failing tool is noted
// in the report rather than ending it: a partial report still helps.
func Collect(ctx context.Context, c tool.Caller) *Report {
	r := &Report{}
	r.Info = fetch[hostinfo.Info](ctx, c, "perf_info", r)
	r.Snapshot = fetch[hostinfo.Snapshot](ctx, c, "sys_snapshot", r)
	r.Use = fetch[health.UseCheck](ctx, c, "perf_use_check", r) // perf_snapshot's rates over 1 s, judged
	return r
}

func fetch[T any](ctx context.Context, c tool.Caller, name string, r *Report) *T {
	res, err := c.Call(ctx, name, nil)
	if err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s: %v", name, err))
		return nil
	}
	if res.Err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s: %s: %s", name, res.Err.Code, res.Err.Message))
		return nil
	}
	for _, w := range res.Envelope.Warnings {
		r.Warnings = append(r.Warnings, name+": "+w)
	}
	var v T
	if err := json.Unmarshal(res.Envelope.Data, &v); err != nil {
		r.Problems = append(r.Problems, fmt.Sprintf("%s: decoding its answer: %v", name, err))
		return nil
	}
	return &v
}

// Write renders the report as text, verdict first.
func (r *Report) Write(w io.Writer) error {
	p := &printer{w: w}
	r.header(p)
	r.verdict(p)
	r.resources(p)
	r.platform(p)
	for _, s := range r.Problems {
		p.line("Problem   %s", s)
	}
	for _, s := range r.Warnings {
		p.line("Note      %s", s)
	}
	return p.err
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}
