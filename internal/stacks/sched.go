package stacks

import (
	"bufio"
	"bytes"
	"strconv"
	"strings"
)

// TaskLatency is one row of `perf sched latency`: a task's run time and
// how long it waited to run once woken.
type TaskLatency struct {
	Task       string  `json:"task"`
	TID        int     `json:"tid" jsonschema:"the thread (for a single-threaded process, its pid); 0 when perf merged several (task:(N))"`
	RuntimeMS  float64 `json:"runtime_ms"`
	Switches   int     `json:"switches"`
	AvgDelayMS float64 `json:"avg_delay_ms"`
	MaxDelayMS float64 `json:"max_delay_ms"`
}

// ParseSchedLatency reads `perf sched latency` rows:
// "  task:pid | 12.3 ms | 4 | avg: 0.010 ms | max: 0.017 ms | ...".
// Lines that are not rows (headers, rules, the total) are skipped.
func ParseSchedLatency(b []byte) []TaskLatency {
	var out []TaskLatency
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "|")
		if len(cols) < 5 {
			continue
		}
		name := strings.TrimSpace(cols[0])
		i := strings.LastIndexByte(name, ':')
		if i <= 0 {
			continue
		}
		t := TaskLatency{Task: name[:i]}
		t.TID, _ = strconv.Atoi(name[i+1:])
		if t.Task == ":"+name[i+1:] { // perf knew no name and printed the tid
			t.Task = ""
		}
		var ok1, ok2, ok3, ok4 bool
		t.RuntimeMS, ok1 = msValue(cols[1])
		sw, err := strconv.Atoi(strings.TrimSpace(cols[2]))
		t.Switches, ok2 = sw, err == nil
		t.AvgDelayMS, ok3 = msValue(strings.TrimPrefix(strings.TrimSpace(cols[3]), "avg:"))
		t.MaxDelayMS, ok4 = msValue(strings.TrimPrefix(strings.TrimSpace(cols[4]), "max:"))
		if ok1 && ok2 && ok3 && ok4 {
			out = append(out, t)
		}
	}
	return out
}

// msValue reads "  12.345 ms".
func msValue(s string) (float64, bool) {
	f := strings.Fields(s)
	if len(f) != 2 || f[1] != "ms" {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// SwitchIn is one row of `perf sched timehist --state`: a task switched out
// at Time after running RunMS, having waited WaitMS before that run and
// SchedDelayMS between its wakeup and that run; State is how it left the CPU
// (R preempted, S sleeping, D uninterruptible, ...).
type SwitchIn struct {
	Time         float64
	Task         string
	TID, PID     int
	WaitMS       float64
	SchedDelayMS float64
	RunMS        float64
	State        string
}

// ParseTimehist reads `perf sched timehist --state` rows:
// "5346.507742 [0000]  perf[26092]  0.000  0.000  0.000  D".
// Task names may contain spaces, so the row is read from both ends.
func ParseTimehist(b []byte) []SwitchIn {
	var out []SwitchIn
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 7 || !strings.HasPrefix(f[1], "[") {
			continue
		}
		t, err := strconv.ParseFloat(f[0], 64)
		if err != nil {
			continue
		}
		n := len(f)
		state := f[n-1]
		wait, e1 := strconv.ParseFloat(f[n-4], 64)
		delay, e2 := strconv.ParseFloat(f[n-3], 64)
		run, e3 := strconv.ParseFloat(f[n-2], 64)
		if e1 != nil || e2 != nil || e3 != nil {
			continue
		}
		name := strings.Join(f[2:n-4], " ")
		open := strings.LastIndexByte(name, '[')
		if open < 0 || !strings.HasSuffix(name, "]") {
			continue
		}
		s := SwitchIn{Time: t, Task: name[:open], WaitMS: wait, SchedDelayMS: delay, RunMS: run, State: state}
		ids := name[open+1 : len(name)-1]
		if tid, pid, ok := strings.Cut(ids, "/"); ok {
			s.TID, _ = strconv.Atoi(tid)
			s.PID, _ = strconv.Atoi(pid)
		} else {
			s.TID, _ = strconv.Atoi(ids)
			s.PID = s.TID
		}
		out = append(out, s)
	}
	return out
}

// OffCPUReason names why a task left the CPU from the state perf sched
// timehist printed for it. perf before 6.10 decodes prev_state with the
// kernel's pre-4.14 letters ("RSDTtZXxKWP") while kernels since 4.14 report
// the new layout, so on such a pair an idle kernel thread (I) prints as K
// and a preempted task (R+) as W; a newer perf prints I and R+. S, D and T
// mean the same to both. Every spelling is read here.
func OffCPUReason(state string) string {
	switch state {
	case "S":
		return "sleeping"
	case "D":
		return "uninterruptible"
	case "R", "R+", "W":
		return "preempted"
	case "I", "K":
		return "idle"
	case "T", "t":
		return "stopped"
	}
	return "other"
}
