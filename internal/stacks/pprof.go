package stacks

import (
	"bytes"
	"time"

	"github.com/google/pprof/profile"
)

// Pprof encodes samples as a gzipped pprof profile (what `go tool pprof`
// and other pprof viewers open): two sample values, the count and the CPU
// time it stands for at rateHz.
func Pprof(samples []Sample, rateHz int, start time.Time, dur time.Duration) ([]byte, error) {
	period := int64(time.Second) / int64(max(rateHz, 1))
	p := &profile.Profile{
		SampleType:    []*profile.ValueType{{Type: "samples", Unit: "count"}, {Type: "cpu", Unit: "nanoseconds"}},
		PeriodType:    &profile.ValueType{Type: "cpu", Unit: "nanoseconds"},
		Period:        period,
		TimeNanos:     start.UnixNano(),
		DurationNanos: int64(dur),
	}
	funcs := map[string]*profile.Function{}
	locs := map[string]*profile.Location{}
	maps := map[string]*profile.Mapping{}
	for _, s := range samples {
		ps := &profile.Sample{Value: []int64{s.Count, s.Count * period}, Label: map[string][]string{"comm": {s.Comm}}, NumLabel: map[string][]int64{"pid": {int64(s.PID)}, "tid": {int64(s.TID)}}}
		for _, f := range s.Stack { // leaf first, as pprof wants
			name := frameName(f)
			key := name + "\x00" + f.Module
			loc := locs[key]
			if loc == nil {
				fn := funcs[key]
				if fn == nil {
					fn = &profile.Function{ID: uint64(len(funcs) + 1), Name: name, SystemName: name, Filename: f.Module}
					funcs[key] = fn
					p.Function = append(p.Function, fn)
				}
				m := maps[f.Module]
				if m == nil {
					m = &profile.Mapping{ID: uint64(len(maps) + 1), File: f.Module, HasFunctions: true}
					maps[f.Module] = m
					p.Mapping = append(p.Mapping, m)
				}
				loc = &profile.Location{ID: uint64(len(locs) + 1), Mapping: m, Line: []profile.Line{{Function: fn}}}
				locs[key] = loc
				p.Location = append(p.Location, loc)
			}
			ps.Location = append(ps.Location, loc)
		}
		p.Sample = append(p.Sample, ps)
	}
	if err := p.CheckValid(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	if err := p.Write(&b); err != nil { // gzipped protobuf
		return nil, err
	}
	return b.Bytes(), nil
}
