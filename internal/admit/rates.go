package admit

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/time/rate"
)

// maxClients bounds the buckets kept. Past it, buckets that have refilled
// are dropped first: a full bucket is the same as a new one, so nobody
// gains by it.
const maxClients = 1024

// Rates is a token bucket per client: each call takes a token, tokens come
// back at PerSecond up to Burst, and a call that finds none is refused with
// the time until the next one.
type Rates struct {
	perSecond rate.Limit
	burst     int
	settings  string
	now       func() time.Time
	refused   atomic.Uint64

	mu      sync.Mutex
	clients map[string]*rate.Limiter
}

// NewRates builds the buckets; now is nil for the wall clock. settings
// names the configuration keys, for the refusal message.
func NewRates(perSecond float64, burst int, settings string, now func() time.Time) *Rates {
	if now == nil {
		now = time.Now
	}
	return &Rates{perSecond: rate.Limit(perSecond), burst: max(burst, 1), settings: settings, now: now,
		clients: map[string]*rate.Limiter{}}
}

// Take spends one of client's tokens, or refuses the call.
func (r *Rates) Take(client string) *Refusal {
	now := r.now()
	lim := r.bucket(client, now)
	res := lim.ReserveN(now, 1)
	wait := res.DelayFrom(now)
	if wait == 0 {
		return nil
	}
	res.CancelAt(now) // a refused call spends nothing
	r.refused.Add(1)
	msg := fmt.Sprintf("this client sent calls faster than its limit of %g per second (bursts of %d)", float64(r.perSecond), r.burst)
	if r.settings != "" {
		msg += " (" + r.settings + ")"
	}
	return &Refusal{Reason: RateLimited, Limit: "rate", Message: msg, RetryAfter: max(wait, time.Millisecond)}
}

func (r *Rates) bucket(client string, now time.Time) *rate.Limiter {
	r.mu.Lock()
	defer r.mu.Unlock()
	if lim, ok := r.clients[client]; ok {
		return lim
	}
	if len(r.clients) >= maxClients {
		r.dropFull(now)
	}
	lim := rate.NewLimiter(r.perSecond, r.burst)
	r.clients[client] = lim
	return lim
}

// dropFull forgets refilled buckets; if every bucket is in use it forgets
// one anyway, so the map stays bounded (that client starts over full).
func (r *Rates) dropFull(now time.Time) {
	for id, lim := range r.clients {
		if lim.TokensAt(now) >= float64(r.burst) {
			delete(r.clients, id)
		}
	}
	for id := range r.clients {
		if len(r.clients) < maxClients {
			return
		}
		delete(r.clients, id)
	}
}

// PerSecond is the rate tokens come back at.
func (r *Rates) PerSecond() float64 { return float64(r.perSecond) }

// Burst is the most tokens a bucket holds.
func (r *Rates) Burst() int { return r.burst }

// Refused counts the calls refused since the buckets were built.
func (r *Rates) Refused() uint64 { return r.refused.Load() }

// Clients is how many buckets are kept now.
func (r *Rates) Clients() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.clients)
}
