package admit

import (
	"errors"
	"time"
)

// Reason says why a call was turned away.
type Reason int

const (
	// Busy: the server has as much work in flight as it allows.
	Busy Reason = iota + 1
	// RateLimited: the client sent calls faster than its rate.
	RateLimited
)

// Refusal is a call turned away before it did its work, with how long to
// wait before trying again. It is an error so that it travels up from
// wherever it happened (the gate before a handler, or the start of a
// program inside one) and is reported for what it is.
type Refusal struct {
	Reason     Reason
	Limit      string // the gate's name, or "rate"
	Message    string // what was full, and the settings that size it
	RetryAfter time.Duration
}

func (r *Refusal) Error() string { return r.Message }

// AsRefusal finds a Refusal in err's chain, however it was wrapped.
func AsRefusal(err error) (*Refusal, bool) {
	var r *Refusal
	ok := errors.As(err, &r)
	return r, ok
}
