package stacks

import "testing"

// Output captured from perf 6.1 on this kind of machine.
const latencyOut = `
 -------------------------------------------------------------------------------------------------------------------------------------------
  Task                  |   Runtime ms  | Switches | Avg delay ms    | Max delay ms    | Max delay start           | Max delay end          |
 -------------------------------------------------------------------------------------------------------------------------------------------
  perf:(2)              |      0.353 ms |        1 | avg:   1.174 ms | max:   1.174 ms | max start:  5346.507858 s | max end:  5346.509032 s
  sh:26087              |    645.221 ms |        4 | avg:   0.010 ms | max:   0.017 ms | max start:  5346.508010 s | max end:  5346.508027 s
  kworker/0:1-eve:11    |      6.526 ms |        1 | avg:   0.000 ms | max:   0.000 ms | max start:     0.000000 s | max end:     0.000000 s
  :68:68                |      0.000 ms |        1 | avg:   0.000 ms | max:   0.000 ms | max start:     0.000000 s | max end:     0.000000 s
 -----------------------------------------------------------------------------------------------------------------
  TOTAL:                |    652.100 ms |        6 |
`

const timehistOut = `           time    cpu  task name                       wait time  sch delay   run time  state
                        [tid/pid]                          (msec)     (msec)     (msec)       
--------------- ------  ------------------------------  ---------  ---------  ---------  -----
    5346.507742 [0000]  perf[26092]                         0.000      0.000      0.000      D 
    5346.507762 [0000]  migration/0[18]                     0.000      0.005      0.019      S 
    5346.508010 [0000]  Web Content[4242/4200]              12.500      0.010      0.247      R 
`

func TestParseSchedLatency(t *testing.T) {
	got := ParseSchedLatency([]byte(latencyOut))
	if len(got) != 4 {
		t.Fatalf("%d rows: %+v", len(got), got)
	}
	if g := got[1]; g.Task != "sh" || g.TID != 26087 || g.RuntimeMS != 645.221 || g.Switches != 4 || g.AvgDelayMS != 0.010 || g.MaxDelayMS != 0.017 {
		t.Errorf("row %+v", g)
	}
	if g := got[0]; g.Task != "perf" || g.TID != 0 || g.MaxDelayMS != 1.174 {
		t.Errorf("merged row %+v", g)
	}
	if g := got[2]; g.Task != "kworker/0:1-eve" || g.TID != 11 {
		t.Errorf("a name with a colon: %+v", g)
	}
	if g := got[3]; g.Task != "" || g.TID != 68 {
		t.Errorf("a thread perf knew no name for (perf prints :tid): %+v", g)
	}
}

func TestParseTimehist(t *testing.T) {
	got := ParseTimehist([]byte(timehistOut))
	if len(got) != 3 {
		t.Fatalf("%d rows: %+v", len(got), got)
	}
	if g := got[2]; g.Task != "Web Content" || g.TID != 4242 || g.PID != 4200 || g.WaitMS != 12.5 || g.RunMS != 0.247 || g.State != "R" {
		t.Errorf("row %+v", g)
	}
	if g := got[0]; g.Task != "perf" || g.TID != 26092 || g.PID != 26092 || g.State != "D" {
		t.Errorf("row %+v", g)
	}
}

// The letters of perf 6.1 on a 6.x kernel (checked against perf script's
// prev_state on the same recording: K was I, W was R+) and of newer perf.
func TestOffCPUReason(t *testing.T) {
	for state, want := range map[string]string{
		"S": "sleeping", "D": "uninterruptible", "R": "preempted", "R+": "preempted", "W": "preempted",
		"I": "idle", "K": "idle", "T": "stopped", "t": "stopped", "X": "other", "Z": "other", "": "other",
	} {
		if got := OffCPUReason(state); got != want {
			t.Errorf("%q: %s, want %s", state, got, want)
		}
	}
}

func FuzzParseSched(f *testing.F) {
	f.Add([]byte(latencyOut), []byte(timehistOut))
	f.Fuzz(func(t *testing.T, a, b []byte) {
		_ = ParseSchedLatency(a)
		_ = ParseTimehist(b)
	})
}

func FuzzParsePerfScript(f *testing.F) {
	f.Add([]byte("sh 26087/26087 \n\t            6f2f [unknown] (/usr/bin/dash)\n\t    7ffd8f10db70 f+0x1 ([unknown])\n\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		samples, err := ParsePerfScript(b)
		if err == nil {
			_ = Summarize(samples, 5)
			_ = Collapsed(samples)
		}
	})
}
