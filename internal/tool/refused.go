package tool

import "github.com/hostmcp/hostmcp/internal/admit"

// refused is the tool error for a call the server turned away: BUSY or
// RATE_LIMITED, with the time to retry after and the settings behind the
// limit in the message.
func refused(r *admit.Refusal) *Error {
	code := Busy
	if r.Reason == admit.RateLimited {
		code = RateLimited
	}
	e := Wrap(code, r, "%s", r.Message)
	e.RetryAfter = r.RetryAfter
	return e
}
