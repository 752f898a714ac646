package admit

import (
	"context"
	"testing"
	"time"
)

// BenchmarkAdmit is what admission adds to a call that is let in: a token,
// a call slot and a program slot taken and given back.
func BenchmarkAdmit(b *testing.B) {
	c := New(&Options{MaxCalls: 64, QueuedCalls: 64, MaxProgramCalls: 8, QueuedProgramCalls: 16,
		QueueWait: 5 * time.Second, CallsPerSecond: 1e6, Burst: 1e6, MaxHTTPRequests: 256})
	ctx := context.Background()
	for b.Loop() {
		_, release, err := c.Admit(ctx, "client", true)
		if err != nil {
			b.Fatal(err)
		}
		release()
	}
}
