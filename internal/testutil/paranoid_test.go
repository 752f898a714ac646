package testutil

import "testing"

// PerfParanoid sets the level for the test that asks and puts the old one
// back at its cleanup.
func TestPerfParanoidRestores(t *testing.T) {
	RequireRoot(t)
	RequireFile(t, paranoidPath)
	was := ReadParanoid(t)
	level := 2
	if was == 2 {
		level = 1
	}
	t.Run("set", func(t *testing.T) {
		PerfParanoid(t, level) // holds the load lock until this subtest ends
		if got := ReadParanoid(t); got != level {
			t.Fatalf("perf_event_paranoid is %d, want %d", got, level)
		}
	})
	if got := ReadParanoid(t); got != was {
		t.Errorf("perf_event_paranoid is %d after the test, want %d back", got, was)
	}
}
