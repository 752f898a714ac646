package admit

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// GateOptions shape a Gate.
type GateOptions struct {
	// Name labels the gate in metrics ("calls", "programs", "http").
	Name string
	// What names what holds a slot, for the refusal message ("calls that
	// start programs").
	What string
	// Settings names the configuration keys that size the gate, so the
	// message says what the operator would change.
	Settings string
	Size     int           // slots; at least 1
	Queue    int           // callers that may wait for a slot; 0 refuses at once when full
	Wait     time.Duration // the longest a queued caller waits before it is refused
}

// Gate bounds how many holders run at once, with a short queue of
// waiters; beyond the queue, or after waiting its time, a caller is refused
// at once with a time to retry after. It never hangs and never queues
// without bound.
type Gate struct {
	opts    GateOptions
	slots   chan struct{} // a token per slot in use; waiters are served in order
	waiting atomic.Int64
	refused atomic.Uint64

	mu       sync.Mutex
	meanHold time.Duration // moving average of how long a slot is held
}

// NewGate builds a gate; a size below 1 is taken as 1.
func NewGate(o GateOptions) *Gate {
	o.Size = max(o.Size, 1)
	o.Queue = max(o.Queue, 0)
	return &Gate{opts: o, slots: make(chan struct{}, o.Size)}
}

// Enter takes a slot, waiting in the queue for at most the gate's wait if
// none is free. It returns the function that gives the slot back (safe to
// call more than once), or a *Refusal, or ctx's error when ctx ended while
// waiting.
func (g *Gate) Enter(ctx context.Context) (release func(), err error) {
	return g.EnterBy(ctx, time.Now().Add(g.opts.Wait))
}

// EnterBy is Enter with the wait ending at deadline, so that a call passing
// two gates waits at most one queue_wait in all.
func (g *Gate) EnterBy(ctx context.Context, deadline time.Time) (release func(), err error) {
	if release, ok := g.TryEnter(); ok {
		return release, nil
	}
	if g.waiting.Add(1) > int64(g.opts.Queue) {
		g.waiting.Add(-1)
		return nil, g.Refuse()
	}
	defer g.waiting.Add(-1)
	t := time.NewTimer(time.Until(deadline))
	defer t.Stop()
	// Blocked senders on a channel are served first come, first served, so
	// a slot that frees goes to the longest waiter, not to a newcomer.
	select {
	case g.slots <- struct{}{}:
		return g.held(), nil
	case <-t.C:
		return nil, g.refuse(true)
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// TryEnter takes a free slot if there is one, without queueing and without
// counting a refusal when there is none: the caller may still let the
// request through another way, or call Refuse.
func (g *Gate) TryEnter() (release func(), ok bool) {
	select {
	case g.slots <- struct{}{}:
		return g.held(), true
	default:
		return nil, false
	}
}

// Refuse counts a caller turned away by a full gate and says why.
func (g *Gate) Refuse() *Refusal { return g.refuse(false) }

func (g *Gate) held() func() {
	start := time.Now()
	var once sync.Once
	return func() {
		once.Do(func() {
			g.observe(time.Since(start))
			<-g.slots
		})
	}
}

// observe folds one hold time into the moving average (weight 1/8), which
// estimates when a slot will next be free.
func (g *Gate) observe(d time.Duration) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.meanHold == 0 {
		g.meanHold = d
		return
	}
	g.meanHold += (d - g.meanHold) / 8
}

// Bounds of the time a refused caller is told to wait: not so short that
// it invites a retry storm, not so long that it reads as "never".
const (
	minRetryAfter = 100 * time.Millisecond
	maxRetryAfter = time.Minute
)

// retryAfter estimates when a slot will be free for a new caller: slots
// free at about Size per mean hold, and the queue ahead of it goes first.
// Before any slot was given back the gate's wait stands in for it.
func (g *Gate) retryAfter() time.Duration {
	g.mu.Lock()
	hold := g.meanHold
	g.mu.Unlock()
	if hold == 0 {
		hold = g.opts.Wait
	}
	d := hold * time.Duration(g.waiting.Load()+1) / time.Duration(g.opts.Size)
	return min(max(d, minRetryAfter), maxRetryAfter)
}

func (g *Gate) refuse(waited bool) *Refusal {
	g.refused.Add(1)
	msg := fmt.Sprintf("the server is running its limit of %d %s and %d more are waiting", g.opts.Size, g.opts.What, g.waiting.Load())
	if waited {
		msg = fmt.Sprintf("the server is running its limit of %d %s and none finished within the %s a call may wait", g.opts.Size, g.opts.What, g.opts.Wait)
	}
	if g.opts.Settings != "" {
		msg += " (" + g.opts.Settings + ")"
	}
	return &Refusal{Reason: Busy, Limit: g.opts.Name, Message: msg, RetryAfter: g.retryAfter()}
}

// Name labels the gate in metrics.
func (g *Gate) Name() string { return g.opts.Name }

// Size is how many may hold a slot at once.
func (g *Gate) Size() int { return g.opts.Size }

// Queue is how many may wait for a slot.
func (g *Gate) Queue() int { return g.opts.Queue }

// InUse is how many slots are held now.
func (g *Gate) InUse() int { return len(g.slots) }

// Waiting is how many callers wait for a slot now.
func (g *Gate) Waiting() int { return int(g.waiting.Load()) }

// Refused counts the callers turned away since the gate was built.
func (g *Gate) Refused() uint64 { return g.refused.Load() }
