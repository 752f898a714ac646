package bpfprog

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/cilium/ebpf/link"

	"github.com/hostmcp/hostmcp/internal/admit"
)

// A call of a tool that did not declare tool.Spec.Programs attaches
// nothing; a call holding a program slot, or code outside any call, does.
func TestTraceRefusesACallWithoutAProgramSlot(t *testing.T) {
	ctl := admit.New(&admit.Options{MaxCalls: 2, MaxProgramCalls: 1, QueueWait: time.Second, CallsPerSecond: 100, Burst: 100, MaxHTTPRequests: 1})
	light, releaseLight, err := ctl.Admit(context.Background(), "t", false)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseLight()
	heavy, releaseHeavy, err := ctl.Admit(context.Background(), "t", true)
	if err != nil {
		t.Fatal(err)
	}
	defer releaseHeavy()
	stop := errors.New("the attacher was reached")
	for _, tc := range []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"undeclared call", light, admit.ErrUndeclared},
		{"declared call", heavy, stop},
		{"no call", context.Background(), stop},
	} {
		attach := func() (link.Link, error) { return nil, stop }
		if err := trace(tc.ctx, time.Millisecond, nil, nil, nil, attach); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
}
