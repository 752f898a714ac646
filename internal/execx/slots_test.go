package execx

import (
	"context"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// A child started outside an admitted call takes a program slot of its own
// for as long as it runs, and a start that finds none is refused before
// anything is forked; a child of a call that holds a slot runs under it.
func TestChildrenTakeProgramSlots(t *testing.T) {
	ctl := admit.New(&admit.Options{MaxCalls: 4, MaxProgramCalls: 1, QueueWait: time.Second, CallsPerSecond: 1000, Burst: 1000, MaxHTTPRequests: 1})
	slots := ctl.Programs()
	dir, name := helperPath()
	r, err := New(&Options{Allowed: []string{name}, ExtraPath: []string{dir}, Programs: slots})
	if err != nil {
		t.Fatal(err)
	}

	first, err := r.Start(context.Background(), helperCmd(name, "sleep"))
	if err != nil {
		t.Fatalf("first child: %v", err)
	}
	killLater(t, first.Pid())
	if slots.InUse() != 1 {
		t.Fatalf("a child outside any call holds %d slots, want 1", slots.InUse())
	}
	second, err := r.Start(context.Background(), helperCmd(name, "sleep"))
	if _, ok := admit.AsRefusal(err); !ok {
		if second != nil {
			killLater(t, second.Pid())
		}
		t.Fatalf("second child with the only slot taken: %v, want a refusal", err)
	}
	first.Stop(0)
	if slots.InUse() != 0 {
		t.Fatalf("the slot was not given back once the child was reaped: %d in use", slots.InUse())
	}

	call, release, err := ctl.Admit(context.Background(), "test", true)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	res, err := r.Run(call, helperCmd(name, "exit", "0"))
	if err != nil || res.ExitCode != 0 {
		t.Fatalf("a child of a call holding the slot: %v, %+v", err, res)
	}
	if slots.InUse() != 1 {
		t.Errorf("the call's child took a second slot: %d in use", slots.InUse())
	}
}
