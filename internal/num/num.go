// Package num rounds the figures answers carry, so an agent reads 12.35
// rather than 12.349999999999998: digits beyond what was measured cost
// tokens and say nothing. It also writes figures for a person (human.go).
package num

import "math"

// Round1 rounds v to one decimal, half away from zero.
func Round1(v float64) float64 { return math.Round(v*10) / 10 }

// Round2 rounds v to two decimals, half away from zero.
func Round2(v float64) float64 { return math.Round(v*100) / 100 }

// Round3 rounds v to three decimals, half away from zero: milliseconds to
// the microsecond, seconds to the millisecond.
func Round3(v float64) float64 { return math.Round(v*1000) / 1000 }
