package bpfprog

import (
	"context"
	"time"
)

// BioOptions are perf_bio_latency's settings.
type BioOptions struct {
	Queued      bool   // from insertion into the OS queue, not from issue
	UnitNS      uint64 // histogram unit: 1000 (µs) or 1000000 (ms)
	LinearWidth uint64 // 0: log2 slots; else linear slots this many units wide
}

// BioMechanism is how BioLatency measures.
func BioMechanism(queued bool) string {
	if queued {
		return "eBPF on tracepoints block:block_rq_insert, block:block_rq_issue, block:block_rq_complete"
	}
	return "eBPF on tracepoints block:block_rq_issue, block:block_rq_complete"
}

// BioLatency times block requests for d: a histogram per device (the
// kernel's dev_t, major<<20|minor).
func BioLatency(ctx context.Context, d time.Duration, o BioOptions, progress Progress) (map[uint32]Slots, error) {
	spec, err := loadBiolat()
	var objs biolatObjects
	consts := map[string]any{"queued": boolByte(o.Queued), "unit_ns": max(o.UnitNS, 1), "linear_width": o.LinearWidth}
	if err := load("block latency", spec, err, consts, &objs); err != nil {
		return nil, err
	}
	defer objs.Close()
	attach := []attacher{
		tracepoint("block", "block_rq_issue", objs.OnIssue),
		tracepoint("block", "block_rq_complete", objs.OnComplete),
	}
	if o.Queued {
		attach = append(attach, tracepoint("block", "block_rq_insert", objs.OnInsert))
	}
	if err := trace(ctx, d, progress, nil, nil, attach...); err != nil {
		return nil, err
	}
	out := map[uint32]Slots{}
	var dev uint32
	var h Slots
	it := objs.Hists.Iterate()
	for it.Next(&dev, &h) {
		out[dev] = h
	}
	return out, it.Err()
}

func boolByte(b bool) uint8 {
	if b {
		return 1
	}
	return 0
}
