package stacks

import (
	"encoding/json"
	"fmt"
)

// perfJSON is the part of `perf data convert --to-json` we read
// (tools/perf/util/data-convert-json.c: samples with pid, tid, comm and a
// callchain of {ip, symbol, dso}, leaf first).
type perfJSON struct {
	Samples []struct {
		PID       int    `json:"pid"`
		TID       int    `json:"tid"`
		Comm      string `json:"comm"`
		Callchain []struct {
			Symbol string `json:"symbol"`
			DSO    string `json:"dso"`
		} `json:"callchain"`
		// Without -g perf writes the sample's own ip, symbol and dso.
		Symbol string `json:"symbol"`
		DSO    string `json:"dso"`
	} `json:"samples"`
}

// ParsePerfJSON decodes perf's JSON export into samples of count 1.
func ParsePerfJSON(b []byte) ([]Sample, error) {
	var doc perfJSON
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("decoding perf JSON: %w", err)
	}
	out := make([]Sample, 0, len(doc.Samples))
	for _, s := range doc.Samples {
		st := make([]Frame, 0, len(s.Callchain))
		for _, c := range s.Callchain {
			st = append(st, Frame{Func: orUnknown(c.Symbol), Module: orUnknown(c.DSO)})
		}
		if len(st) == 0 {
			st = append(st, Frame{Func: orUnknown(s.Symbol), Module: orUnknown(s.DSO)})
		}
		out = append(out, Sample{PID: s.PID, TID: s.TID, Comm: s.Comm, Stack: st, Count: 1})
	}
	return out, nil
}

func orUnknown(s string) string {
	if s == "" {
		return unknown
	}
	return s
}
