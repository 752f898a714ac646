package diagnose

import (
	"fmt"
	"math"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// fdGrowth is how the descriptor count moved over the samples.
type fdGrowth struct {
	First     int     `json:"first"`
	Last      int     `json:"last"`
	Delta     int     `json:"delta"`
	PerMinute float64 `json:"per_minute"` // least-squares slope
	// Rises and Falls count sample-to-sample steps up and down.
	Rises int `json:"rises"`
	Falls int `json:"falls"`
	// SecondsToLimit projects when the soft limit is reached at this slope;
	// absent when not growing or unlimited.
	SecondsToLimit *float64 `json:"seconds_to_limit,omitempty"`
}

// Leak rules: a leak is steady growth, not a burst that is given back. The
// count must grow by at least leakMinDelta descriptors (and 5% of where it
// started) over at least three samples, never falling.
const (
	leakMinDelta = 10
	leakMinShare = 0.05
)

// fdVerdict judges the samples: "leaking" (steady growth), "possible_leak"
// (net growth with dips, or steady but small, or too few samples),
// "shrinking" or "stable"; with the evidence that decided it.
func fdVerdict(samples []fdSample, soft uint64) (fdGrowth, string, []string) {
	var g fdGrowth
	if len(samples) == 0 {
		return g, "stable", []string{"no samples"}
	}
	g.First, g.Last = samples[0].Total, samples[len(samples)-1].Total
	g.Delta = g.Last - g.First
	for i := 1; i < len(samples); i++ {
		switch d := samples[i].Total - samples[i-1].Total; {
		case d > 0:
			g.Rises++
		case d < 0:
			g.Falls++
		}
	}
	g.PerMinute = figures.Round2(slope(samples) * 60)
	if g.PerMinute > 0 && soft > 0 && uint64(g.Last) < soft {
		secs := math.Round(float64(soft-uint64(g.Last)) / (g.PerMinute / 60))
		g.SecondsToLimit = &secs
	}
	evidence := []string{fmt.Sprintf("%d -> %d descriptors over %d samples (%+d, %.1f/min); %d rises, %d falls",
		g.First, g.Last, len(samples), g.Delta, g.PerMinute, g.Rises, g.Falls)}
	big := g.Delta >= leakMinDelta && float64(g.Delta) >= leakMinShare*float64(max(g.First, 1))
	switch {
	case big && g.Falls == 0 && len(samples) >= 3 && g.Rises >= (len(samples)-1+1)/2:
		evidence = append(evidence, fmt.Sprintf("grew by %d without ever falling, in %d of %d steps", g.Delta, g.Rises, len(samples)-1))
		if g.SecondsToLimit != nil {
			evidence = append(evidence, fmt.Sprintf("at this rate the soft limit %d is reached in %.0f s", soft, *g.SecondsToLimit))
		}
		return g, "leaking", evidence
	case big || (g.Delta > 0 && g.Falls == 0 && g.Rises > 0):
		if len(samples) < 3 {
			evidence = append(evidence, "only two samples: trace longer, or with a shorter interval, to tell a leak from a burst")
		} else if g.Falls > 0 {
			evidence = append(evidence, "net growth, but the count also fell: a pool or cache may be filling")
		} else {
			evidence = append(evidence, fmt.Sprintf("steady growth of %d, below the %d-descriptor leak threshold", g.Delta, leakMinDelta))
		}
		return g, "possible_leak", evidence
	case g.Delta < 0:
		return g, "shrinking", evidence
	}
	return g, "stable", evidence
}

// slope is the least-squares growth in descriptors per second.
func slope(samples []fdSample) float64 {
	n := float64(len(samples))
	if n < 2 {
		return 0
	}
	var sx, sy, sxx, sxy float64
	for _, s := range samples {
		x, y := float64(s.AtMS)/1000, float64(s.Total)
		sx, sy, sxx, sxy = sx+x, sy+y, sxx+x*x, sxy+x*y
	}
	den := n*sxx - sx*sx
	if den == 0 {
		return 0
	}
	return (n*sxy - sx*sy) / den
}
