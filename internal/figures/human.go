package figures

import (
	"fmt"
	"strconv"
	"time"
)

// Figures as a person reads them at a glance, for the one-line summaries a
// person is asked to confirm ("1,234 files, 56.0 MiB, newest changed 3 min
// ago"); answers an agent reads keep exact numbers.

// Count writes n with its thousands separated by commas: 1,234,567.
func Count(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		return "-" + s
	}
	return s
}

// Span writes d rounded down to its largest unit: 40 s, 3 min, 5 h, 3 days.
func Span(d time.Duration) string {
	switch {
	case d < 0:
		return "0 s"
	case d < time.Minute:
		return fmt.Sprintf("%d s", int64(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%d min", int64(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%d h", int64(d/time.Hour))
	}
	return fmt.Sprintf("%d days", int64(d/(24*time.Hour)))
}

// Counted writes n and the noun, singular for one: "1 file", "1,234 files".
func Counted(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return Count(n) + " " + many
}
