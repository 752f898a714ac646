package stacks

import (
	"bufio"
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
)

// Bucket is one power-of-two bucket of a histogram: values in [Min, Max].
type Bucket struct {
	Min   uint64 `json:"min"`
	Max   uint64 `json:"max"`
	Count uint64 `json:"count"`
}

// Histogram is a latency distribution with its percentiles.
type Histogram struct {
	Key     string   `json:"key"`
	Count   uint64   `json:"count"`
	P50     uint64   `json:"p50" jsonschema:"upper bound of the bucket holding the median"`
	P90     uint64   `json:"p90"`
	P95     uint64   `json:"p95"`
	P99     uint64   `json:"p99"`
	Max     uint64   `json:"max" jsonschema:"upper bound of the highest non-empty bucket"`
	Buckets []Bucket `json:"buckets"`
}

// ParseBpftraceHists reads the "hist" records of `bpftrace -f json` output:
// {"type": "hist", "data": {"@name": {"key": [{"min":..,"max":..,"count":..}]}}}
// (a map without keys has the bucket list directly). It returns the
// histograms of map name by key, sorted by key.
func ParseBpftraceHists(out []byte, name string) ([]Histogram, error) {
	var hists []Histogram
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var rec struct {
			Type string                     `json:"type"`
			Data map[string]json.RawMessage `json:"data"`
		}
		if json.Unmarshal(sc.Bytes(), &rec) != nil || rec.Type != "hist" {
			continue
		}
		raw, ok := rec.Data[name]
		if !ok {
			continue
		}
		var keyed map[string][]Bucket
		if err := json.Unmarshal(raw, &keyed); err != nil {
			var one []Bucket
			if err := json.Unmarshal(raw, &one); err != nil {
				return nil, err
			}
			keyed = map[string][]Bucket{"": one}
		}
		for k, b := range keyed {
			hists = append(hists, NewHistogram(k, b))
		}
	}
	sort.Slice(hists, func(i, j int) bool { return hists[i].Key < hists[j].Key })
	return hists, sc.Err()
}

// NewHistogram computes the count and percentiles of buckets.
func NewHistogram(key string, buckets []Bucket) Histogram {
	h := Histogram{Key: key, Buckets: buckets}
	for _, b := range buckets {
		h.Count += b.Count
		if b.Count > 0 {
			h.Max = b.Max
		}
	}
	h.P50, h.P90, h.P95, h.P99 = quantile(buckets, h.Count, 0.50), quantile(buckets, h.Count, 0.90), quantile(buckets, h.Count, 0.95), quantile(buckets, h.Count, 0.99)
	return h
}

func quantile(buckets []Bucket, total uint64, q float64) uint64 {
	if total == 0 {
		return 0
	}
	need := uint64(q*float64(total) + 0.999999)
	var seen uint64
	for _, b := range buckets {
		seen += b.Count
		if seen >= need {
			return b.Max
		}
	}
	return buckets[len(buckets)-1].Max
}

// DevName turns a kernel dev_t as bpftrace prints it (major<<20 | minor)
// into "major:minor".
func DevName(key string) string {
	v, err := strconv.ParseUint(key, 10, 64)
	if err != nil {
		return key
	}
	return strconv.FormatUint(v>>20, 10) + ":" + strconv.FormatUint(v&0xfffff, 10)
}
