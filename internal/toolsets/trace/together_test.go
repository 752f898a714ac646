package trace

import (
	"slices"
	"testing"
	"time"
)

// Traces run side by side report "attached" once, when the last attaches,
// and their elapsed time only from the first.
func TestTogetherReportsAttachedWhenAllAre(t *testing.T) {
	var got []time.Duration
	parts := together(func(el time.Duration) { got = append(got, el) }, 2)
	parts[0](0)
	parts[0](250 * time.Millisecond) // before the second attached: not reported
	if len(got) != 0 {
		t.Fatalf("reported before every trace attached: %v", got)
	}
	parts[1](0)
	parts[1](time.Second)
	parts[0](500 * time.Millisecond)
	if want := []time.Duration{0, 500 * time.Millisecond}; !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	var one []time.Duration
	single := together(func(el time.Duration) { one = append(one, el) }, 1)
	single[0](0)
	single[0](time.Second)
	if want := []time.Duration{0, time.Second}; !slices.Equal(one, want) {
		t.Fatalf("one trace: got %v, want %v", one, want)
	}
}
