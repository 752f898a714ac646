package bpfprog

import "github.com/hostmcp/hostmcp/internal/stacks"

// Slots is a histogram as the programs keep it (bpf/hist.h): in log2 form
// slot n counts values in [2^n, 2^(n+1)), slot 0 also 0; in linear form
// slot n counts [n*w, (n+1)*w) and the last slot everything above.
type Slots [32]uint64

// Histogram turns slots into buckets (from the first to the last non-empty
// one) with percentiles; width 0 means log2 slots.
func (s Slots) Histogram(key string, width uint64) stacks.Histogram {
	first, last := -1, -1
	for i, c := range s {
		if c > 0 {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	var buckets []stacks.Bucket
	for i := max(first, 0); first >= 0 && i <= last; i++ {
		var b stacks.Bucket
		switch {
		case width > 0 && i == len(s)-1:
			b = stacks.Bucket{Min: uint64(i) * width, Max: ^uint64(0)}
		case width > 0:
			b = stacks.Bucket{Min: uint64(i) * width, Max: uint64(i+1)*width - 1}
		case i == 0:
			b = stacks.Bucket{Min: 0, Max: 1}
		default:
			b = stacks.Bucket{Min: 1 << i, Max: 1<<(i+1) - 1}
		}
		b.Count = s[i]
		buckets = append(buckets, b)
	}
	return stacks.NewHistogram(key, buckets)
}

// Add sums other into s.
func (s *Slots) Add(other Slots) {
	for i := range s {
		s[i] += other[i]
	}
}
