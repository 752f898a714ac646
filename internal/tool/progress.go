package tool

import (
	"context"
	"math"
	"sync"
	"time"
)

// progressEvery bounds notifications so a chatty loop cannot flood the client.
const progressEvery = 250 * time.Millisecond

// progressGate is what a call has sent as progress. It holds its lock while
// a notification is written, so that reports from several goroutines (traces
// run side by side) reach the client in the order they were let through.
type progressGate struct {
	mu   sync.Mutex
	any  bool // a notification was sent
	last float64
	at   time.Time
}

// Progress reports how far a long call is. It does nothing when the client
// sent no progress token. Every tool reports through here, so the protocol's
// rule is kept once for all of them: what reaches the client strictly
// increases and, when total is known, never passes it. A value past total is
// sent as total (the work is done, however late the tool noticed), and one
// not above the last sent is dropped, as are updates closer than 250 ms
// apart, except the one that reaches total.
func (c *Call) Progress(ctx context.Context, progress, total float64, message string) {
	if c.progress == nil || math.IsNaN(progress) {
		return
	}
	if total > 0 && progress > total {
		progress = total
	}
	g := &c.sent
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	final := total > 0 && progress == total
	if g.any && (progress <= g.last || (!final && now.Sub(g.at) < progressEvery)) {
		return
	}
	g.any, g.last, g.at = true, progress, now
	c.progress(ctx, progress, total, message)
}
