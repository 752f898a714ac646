package stacks

import "testing"

const bpfOut = `{"type": "attached_probes", "data": {"probes": 4}}

{"type": "hist", "data": {"@us": {"266338304": [{"min": 16, "max": 31, "count": 1569}, {"min": 32, "max": 63, "count": 427}, {"min": 64, "max": 127, "count": 8}, {"min": 128, "max": 255, "count": 1}, {"min": 256, "max": 511, "count": 0}, {"min": 2048, "max": 4095, "count": 1}]}}}
`

func TestParseBpftraceHists(t *testing.T) {
	h, err := ParseBpftraceHists([]byte(bpfOut), "@us")
	if err != nil || len(h) != 1 {
		t.Fatalf("%+v %v", h, err)
	}
	g := h[0]
	if g.Key != "266338304" || DevName(g.Key) != "254:0" || g.Count != 2006 || g.P50 != 31 || g.P90 != 63 || g.P99 != 63 || g.Max != 4095 {
		t.Fatalf("%+v", g)
	}
}

func FuzzParseBpftraceHists(f *testing.F) {
	f.Add([]byte(bpfOut))
	f.Fuzz(func(t *testing.T, b []byte) {
		hs, _ := ParseBpftraceHists(b, "@us")
		for _, h := range hs {
			var n uint64
			for _, x := range h.Buckets {
				n += x.Count
			}
			if n != h.Count {
				t.Fatalf("count %d, buckets hold %d", h.Count, n)
			}
		}
	})
}
