package admit

import (
	"context"
	"errors"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func enterOK(t *testing.T, g *Gate) func() {
	t.Helper()
	release, err := g.Enter(context.Background())
	if err != nil {
		t.Fatalf("Enter: %v", err)
	}
	return release
}

// settled waits, inside a synctest bubble, until every goroutine the test
// started is blocked (a caller queued at the gate blocks in its select),
// then checks cond: ordering without polling or a deadline.
func settled(t *testing.T, what string, cond func() bool) {
	t.Helper()
	synctest.Wait()
	if !cond() {
		t.Fatalf("not so once every goroutine is blocked: %s", what)
	}
}

func TestGateRefusesBeyondItsQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(GateOptions{Name: "programs", What: "searches", Settings: "[load] max_program_calls", Size: 2, Queue: 1, Wait: time.Minute})
		r1, r2 := enterOK(t, g), enterOK(t, g)
		got := make(chan error, 1)
		go func() {
			release, err := g.Enter(context.Background())
			if err == nil {
				release()
			}
			got <- err
		}()
		settled(t, "the third caller queues", func() bool { return g.Waiting() == 1 })

		_, err := g.Enter(context.Background())
		r, ok := AsRefusal(err)
		if !ok {
			t.Fatalf("fourth caller: %v, want a refusal", err)
		}
		if r.Reason != Busy || r.Limit != "programs" || r.RetryAfter < minRetryAfter {
			t.Errorf("refusal = %+v", r)
		}
		for _, want := range []string{"limit of 2 searches", "1 more are waiting", "[load] max_program_calls"} {
			if !strings.Contains(r.Message, want) {
				t.Errorf("message %q does not say %q", r.Message, want)
			}
		}
		if g.Refused() != 1 || g.InUse() != 2 {
			t.Errorf("refused %d, in use %d; want 1, 2", g.Refused(), g.InUse())
		}
		r1()
		r1() // a second release gives nothing back twice
		if err := <-got; err != nil {
			t.Errorf("the queued caller was not let in when a slot freed: %v", err)
		}
		r2()
		if g.InUse() != 0 || g.Waiting() != 0 {
			t.Errorf("after every release: in use %d, waiting %d", g.InUse(), g.Waiting())
		}
	})
}

// A queued caller is refused when its wait is over, not before and not
// later: in the bubble the wait passes on the fake clock, exactly.
func TestGateRefusesAfterItsWait(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(GateOptions{Name: "calls", What: "calls", Size: 1, Queue: 4, Wait: 5 * time.Second})
		defer enterOK(t, g)()
		start := time.Now()
		_, err := g.Enter(context.Background())
		r, ok := AsRefusal(err)
		if !ok || !strings.Contains(r.Message, "none finished within the 5s") {
			t.Fatalf("Enter = %v, want a refusal after the wait", err)
		}
		if waited := time.Since(start); waited != 5*time.Second {
			t.Errorf("refused after %s, want the 5s wait", waited)
		}
		if g.Waiting() != 0 {
			t.Errorf("a refused caller is still counted as waiting: %d", g.Waiting())
		}
	})
}

// A caller whose deadline has passed (it spent its wait at another gate)
// does not wait again.
func TestGateEnterByPastDeadline(t *testing.T) {
	g := NewGate(GateOptions{Size: 1, Queue: 4, Wait: time.Hour})
	defer enterOK(t, g)()
	if _, err := g.EnterBy(context.Background(), time.Now().Add(-time.Second)); err == nil {
		t.Fatal("let in with the only slot taken")
	} else if _, ok := AsRefusal(err); !ok {
		t.Fatalf("EnterBy = %v, want a refusal", err)
	}
	release, err := NewGate(GateOptions{Size: 1}).EnterBy(context.Background(), time.Now().Add(-time.Second))
	if err != nil {
		t.Fatalf("a free slot is taken whatever the deadline: %v", err)
	}
	release()
}

func TestGateWaiterLeavesWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(GateOptions{Size: 1, Queue: 1, Wait: time.Minute})
		defer enterOK(t, g)()
		ctx, cancel := context.WithCancel(context.Background())
		got := make(chan error, 1)
		go func() {
			_, err := g.Enter(ctx)
			got <- err
		}()
		settled(t, "the caller queues", func() bool { return g.Waiting() == 1 })
		cancel()
		if err := <-got; !errors.Is(err, context.Canceled) {
			t.Errorf("Enter = %v, want context.Canceled", err)
		}
		if g.Refused() != 0 {
			t.Errorf("a cancelled waiter was counted as refused")
		}
	})
}

func TestGateServesWaitersInOrder(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(GateOptions{Size: 1, Queue: 3, Wait: time.Minute})
		release := enterOK(t, g)
		order := make(chan int, 3)
		for i := range 3 {
			go func() {
				r, err := g.Enter(context.Background())
				if err != nil {
					t.Error(err)
					return
				}
				order <- i
				r()
			}()
			settled(t, "the caller queues", func() bool { return g.Waiting() == i+1 })
		}
		release()
		for want := range 3 {
			if got := <-order; got != want {
				t.Fatalf("waiter %d got the slot before waiter %d", got, want)
			}
		}
	})
}

func TestGateRetryAfter(t *testing.T) {
	g := NewGate(GateOptions{Size: 4, Queue: 8, Wait: 3 * time.Second})
	if got := g.retryAfter(); got != 3*time.Second*1/4 {
		t.Errorf("before any hold: %s, want the wait over the size (750ms)", got)
	}
	g.observe(2 * time.Second)
	g.waiting.Store(3)
	if got := g.retryAfter(); got != 2*time.Second {
		t.Errorf("mean hold 2s, 3 waiting, 4 slots: %s, want 2s", got)
	}
	g.observe(0)
	g.waiting.Store(0)
	if got := g.retryAfter(); got != 437500*time.Microsecond {
		t.Errorf("mean hold 1.75s, none waiting, 4 slots: %s, want 437.5ms", got)
	}
	g.meanHold = time.Microsecond
	if got := g.retryAfter(); got != minRetryAfter {
		t.Errorf("a tiny estimate is %s, want the floor %s", got, minRetryAfter)
	}
	g.meanHold = time.Hour
	if got := g.retryAfter(); got != maxRetryAfter {
		t.Errorf("a huge estimate is %s, want the ceiling %s", got, maxRetryAfter)
	}
}
