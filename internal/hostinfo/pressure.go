package hostinfo

import (
	"os"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// psiResources are the resources the kernel reports pressure for.
var psiResources = []string{"cpu", "memory", "io"}

// readPressure reads /proc/pressure/{cpu,memory,io}. A kernel without PSI
// (before 4.20, or booted with psi=0) has none, which perf_info reports:
// that is an answer, not a warning.
// readPressureAt reads the pressure files and when: the start of a read
// that took at most psiClockSlack (cpu, the file most verdicts judge, is
// read first, microseconds after it), retried a few times when the reader
// was preempted in between, so that a window's shares divide by the time
// the counters actually grew over.
func (h *Host) readPressureAt(w *warnings) (map[string]PSIStats, time.Time) {
	for try := 0; ; try++ {
		var quiet warnings
		t0 := time.Now()
		psi := h.readPressure(&quiet)
		took := time.Since(t0)
		if took <= psiClockSlack || try == 3 {
			*w = append(*w, quiet...)
			return psi, t0
		}
	}
}

// psiClockSlack is how long reading the three pressure files may take for
// the reading's time to be trusted: they are read in microseconds when the
// reader is not preempted.
const psiClockSlack = 2 * time.Millisecond

func (h *Host) readPressure(w *warnings) map[string]PSIStats {
	out := map[string]PSIStats{}
	for _, res := range psiResources {
		b, err := os.ReadFile(h.procPath("pressure", res))
		if err != nil {
			continue
		}
		if st, err := parsePSI(b); err == nil {
			out[res] = st
		} else {
			w.add("pressure/%s: %v", res, err)
		}
	}
	return out
}

// Pressure is PSI for the three resources over the sampled interval.
type Pressure struct {
	CPU    PSIWindow `json:"cpu"`
	Memory PSIWindow `json:"memory"`
	IO     PSIWindow `json:"io"`
}

// PSIWindow is one resource's stall over the interval, measured from the
// growth of the kernel's total= counters (µs of stall since boot,
// Documentation/accounting/psi.rst) between the interval's two readings,
// so it describes exactly the time sampled. The kernel's own averages
// decay over 10 and 60 s and remember a burst that has ended: they are
// context, never what a verdict judges.
type PSIWindow struct {
	// SomePercent is the share of the interval in which at least one task
	// waited for the resource; FullPercent the share in which every
	// non-idle task did at once (not meaningful for the CPU host-wide).
	SomePercent float64 `json:"some_percent"`
	FullPercent float64 `json:"full_percent"`
	// SomeStallUS and FullStallUS are how much the total= counters grew
	// over the interval; SomeTotalUS and FullTotalUS are their values at
	// its end, so the figures can be checked against the files.
	SomeStallUS uint64  `json:"some_stall_us"`
	FullStallUS uint64  `json:"full_stall_us"`
	SomeTotalUS uint64  `json:"some_total_us"`
	FullTotalUS uint64  `json:"full_total_us"`
	SomeAvg10   float64 `json:"some_avg10"`
	SomeAvg60   float64 `json:"some_avg60"`
	FullAvg10   float64 `json:"full_avg10"`
	FullAvg60   float64 `json:"full_avg60"`
}

// pressureWindows computes each resource's window between two readings of
// the same pressure files taken dt apart; nil when the second has none.
func pressureWindows(a, b map[string]PSIStats, dt time.Duration) *Pressure {
	if len(b) == 0 {
		return nil
	}
	win := func(res string) PSIWindow {
		before, ok := a[res]
		if !ok { // unread at the start: no window, only the averages
			before = b[res]
		}
		return psiWindow(before, b[res], dt)
	}
	return &Pressure{CPU: win("cpu"), Memory: win("memory"), IO: win("io")}
}

// psiWindow is one resource's stall between readings a and b.
func psiWindow(a, b PSIStats, dt time.Duration) PSIWindow {
	share := func(stall uint64) float64 {
		if dt <= 0 {
			return 0
		}
		return figures.Round2(min(100, float64(stall)/float64(dt.Microseconds())*100))
	}
	w := PSIWindow{SomeStallUS: delta(a.Some.TotalUS, b.Some.TotalUS), SomeTotalUS: b.Some.TotalUS,
		SomeAvg10: b.Some.Avg10, SomeAvg60: b.Some.Avg60}
	w.SomePercent = share(w.SomeStallUS)
	if b.Full != nil {
		before := b.Full.TotalUS
		if a.Full != nil {
			before = a.Full.TotalUS
		}
		w.FullStallUS, w.FullTotalUS = delta(before, b.Full.TotalUS), b.Full.TotalUS
		w.FullAvg10, w.FullAvg60 = b.Full.Avg10, b.Full.Avg60
		w.FullPercent = share(w.FullStallUS)
	}
	return w
}
