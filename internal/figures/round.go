// Package figures rounds the figures answers carry, so an agent reads 12.35
// rather than 12.349999999999998: digits beyond what was measured cost
// tokens and say nothing; and it renders sizes one way for every report,
// and figures for a person (human.go).
package figures

import (
	"fmt"
	"math"
)

// Round1 rounds v to one decimal, half away from zero.
func Round1(v float64) float64 { return math.Round(v*10) / 10 }

// Round2 rounds v to two decimals, half away from zero.
func Round2(v float64) float64 { return math.Round(v*100) / 100 }

// Round3 rounds v to three decimals, half away from zero: milliseconds to
// the microsecond, seconds to the millisecond.
func Round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// IEC renders a byte count with binary units, as free -h does: "512 B",
// "1.5 KiB", "3.2 GiB". Every report and detail line uses it, so a size
// reads the same wherever it appears.
func IEC(n uint64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := uint64(unit), 0
	for m := n / unit; m >= unit; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %ciB", float64(n)/float64(div), "KMGTPE"[exp])
}
