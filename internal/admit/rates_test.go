package admit

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

func TestRatesBucketPerClient(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	r := NewRates(2, 3, "[load] calls_per_second, burst", clock.now)
	for i := range 3 {
		if ref := r.Take("a"); ref != nil {
			t.Fatalf("call %d of the burst refused: %v", i, ref)
		}
	}
	ref := r.Take("a")
	if ref == nil {
		t.Fatal("the call past the burst was let in")
	}
	if ref.Reason != RateLimited || ref.RetryAfter != 500*time.Millisecond {
		t.Errorf("refusal = %+v, want RateLimited after 500ms (2 per second)", ref)
	}
	for _, want := range []string{"2 per second", "bursts of 3", "[load] calls_per_second"} {
		if !strings.Contains(ref.Message, want) {
			t.Errorf("message %q does not say %q", ref.Message, want)
		}
	}
	if ref := r.Take("b"); ref != nil {
		t.Errorf("another client was refused for a's calls: %v", ref)
	}
	// A refused call spends nothing: the token it was refused is there
	// after the wait it was told.
	clock.t = clock.t.Add(ref.RetryAfter)
	if ref := r.Take("a"); ref != nil {
		t.Errorf("after the told wait: %v", ref)
	}
	if ref := r.Take("a"); ref == nil {
		t.Error("a second call right after was let in: the bucket over-refilled")
	}
	if r.Refused() != 2 {
		t.Errorf("refused %d, want 2", r.Refused())
	}
}

func TestRatesKeepBoundedBuckets(t *testing.T) {
	clock := &fakeClock{t: time.Unix(1_800_000_000, 0)}
	r := NewRates(1, 2, "", clock.now)
	r.Take("busy")
	r.Take("busy")
	for i := range maxClients - 1 {
		r.Take(fmt.Sprintf("idle-%d", i))
	}
	clock.t = clock.t.Add(time.Second) // the idle buckets refill; "busy" gets one token back
	r.Take("busy")                     // and spends it
	r.Take("newcomer")
	if n := r.Clients(); n > maxClients {
		t.Fatalf("%d buckets kept, over %d", n, maxClients)
	}
	if ref := r.Take("busy"); ref == nil {
		t.Error("the busy client's empty bucket was dropped while full ones were kept")
	}
}
