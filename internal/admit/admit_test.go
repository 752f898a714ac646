package admit

import (
	"context"
	"testing"
	"testing/synctest"
	"time"
)

func testControl() *Control {
	return New(&Options{MaxCalls: 2, QueuedCalls: 0, MaxProgramCalls: 1, QueuedProgramCalls: 0,
		QueueWait: time.Second, CallsPerSecond: 1000, Burst: 1000, MaxHTTPRequests: 4})
}

func TestAdmitTakesSlots(t *testing.T) {
	c := testControl()
	ctx, release, err := c.Admit(context.Background(), "a", true)
	if err != nil {
		t.Fatal(err)
	}
	if !Holds(ctx, c.Programs()) || Holds(context.Background(), c.Programs()) {
		t.Error("Holds does not tell the admitted call's context")
	}
	if c.Calls().InUse() != 1 || c.Programs().InUse() != 1 {
		t.Errorf("in use: calls %d, programs %d; want 1, 1", c.Calls().InUse(), c.Programs().InUse())
	}
	if Unslotted(ctx) || Unslotted(context.Background()) {
		t.Error("Unslotted is true of a program call, or of a context that is no call's")
	}
	// The program gate is full: a second program call is refused and gives
	// back the call slot it took.
	_, _, err = c.Admit(context.Background(), "a", true)
	if r, ok := AsRefusal(err); !ok || r.Limit != "programs" {
		t.Fatalf("second program call: %v, want a refusal by programs", err)
	}
	if c.Calls().InUse() != 1 {
		t.Errorf("the refused call kept its call slot: %d in use", c.Calls().InUse())
	}
	light, releaseLight, err := c.Admit(context.Background(), "a", false)
	if err != nil {
		t.Fatalf("a call that starts nothing, with a call slot free: %v", err)
	}
	if !Unslotted(light) {
		t.Error("Unslotted is false of a call that holds no program slot")
	}
	_, _, err = c.Admit(context.Background(), "a", false)
	if r, ok := AsRefusal(err); !ok || r.Limit != "calls" {
		t.Fatalf("third call: %v, want a refusal by calls", err)
	}
	release()
	releaseLight()
	if Holds(ctx, c.Programs()) {
		t.Error("the context still holds its program slot after release")
	}
	if c.Calls().InUse() != 0 || c.Programs().InUse() != 0 {
		t.Errorf("after release: calls %d, programs %d in use", c.Calls().InUse(), c.Programs().InUse())
	}
}

func TestAdmitNestedCallsArePartOfTheirCall(t *testing.T) {
	c := New(&Options{MaxCalls: 1, MaxProgramCalls: 1, QueueWait: time.Second, CallsPerSecond: 1, Burst: 1, MaxHTTPRequests: 1})
	outer, release, err := c.Admit(context.Background(), "a", false)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	// Neither a token (the bucket is empty) nor a call slot (the one is
	// held) is needed; the nested search takes the free program slot.
	inner, releaseInner, err := c.Admit(outer, "a", true)
	if err != nil {
		t.Fatalf("nested call refused: %v", err)
	}
	if !Holds(inner, c.Programs()) || c.Programs().InUse() != 1 {
		t.Error("the nested program call holds no program slot")
	}
	nested, releaseNested, err := c.Admit(inner, "a", true)
	if err != nil || c.Programs().InUse() != 1 {
		t.Errorf("a call inside one holding a program slot: %v, %d in use; want it let in on the same slot", err, c.Programs().InUse())
	}
	releaseNested()
	if !Holds(nested, c.Programs()) {
		t.Error("the inner call's release gave back the outer call's program slot")
	}
	releaseInner()
	if c.Programs().InUse() != 0 {
		t.Errorf("%d program slots held after the nested call ended", c.Programs().InUse())
	}
	if _, _, err := c.Admit(context.Background(), "a", false); err == nil {
		t.Error("a new call was let in without a token")
	} else if r, _ := AsRefusal(err); r.Reason != RateLimited {
		t.Errorf("a new call: %v, want RATE_LIMITED first", err)
	}
}

func TestAdmitNilControl(t *testing.T) {
	var c *Control
	ctx, release, err := c.Admit(context.Background(), "a", true)
	if err != nil || ctx == nil {
		t.Fatalf("nil Control: %v", err)
	}
	release()
}

// A call waiting for a program slot holds no call slot meanwhile: a flood
// of searches, running and queued, leaves the call slots to cheap calls.
func TestWaitingProgramCallsLeaveCallSlots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		c := New(&Options{MaxCalls: 2, QueuedCalls: 0, MaxProgramCalls: 1, QueuedProgramCalls: 1,
			QueueWait: time.Minute, CallsPerSecond: 1000, Burst: 1000, MaxHTTPRequests: 1})
		_, releaseRunning, err := c.Admit(context.Background(), "flood", true)
		if err != nil {
			t.Fatal(err)
		}
		queued := make(chan error, 1)
		go func() {
			_, release, err := c.Admit(context.Background(), "flood", true)
			if err == nil {
				release()
			}
			queued <- err
		}()
		settled(t, "the second search queues", func() bool { return c.Programs().Waiting() == 1 })
		_, releaseCheap, err := c.Admit(context.Background(), "agent", false)
		if err != nil {
			t.Fatalf("a cheap call while a search runs and another waits: %v", err)
		}
		releaseCheap()
		releaseRunning()
		if err := <-queued; err != nil {
			t.Errorf("the queued search: %v", err)
		}
	})
}
