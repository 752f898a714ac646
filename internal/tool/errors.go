package tool

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Code is a stable error code. Agents branch on it, so codes are never
// renamed; the catalogue in codes.go gives each its default suggestion.
type Code string

// Error is a tool failure the agent can act on: what went wrong, whether a
// retry or a changed call can succeed, and what to call next.
type Error struct {
	Code        Code
	Message     string
	Suggestion  string
	Recoverable bool
	// RetryAfter, when set, is how long to wait before the same call can
	// succeed (BUSY, RATE_LIMITED).
	RetryAfter time.Duration
	Err        error // the cause, kept for logs; never shown to the agent
	// ask is set by Call.Confirm when a person is to be asked before the
	// call may go on: the runner asks, and the agent never sees it.
	ask *Question
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

// Unwrap exposes the cause to errors.Is and errors.As.
func (e *Error) Unwrap() error { return e.Err }

// Errorf builds an Error with the code's catalogue defaults for recoverable
// and suggestion; use WithSuggestion to give a more specific next step.
// The message is cut at MaxMessageBytes: quote the caller's input through
// Clip, this is only the net under it.
func Errorf(code Code, format string, args ...any) *Error {
	info := catalogue[code]
	return &Error{
		Code:        code,
		Message:     clipTo(fmt.Sprintf(format, args...), MaxMessageBytes),
		Suggestion:  info.suggestion,
		Recoverable: info.recoverable,
	}
}

// Wrap is Errorf that keeps err as the cause.
func Wrap(code Code, err error, format string, args ...any) *Error {
	e := Errorf(code, format, args...)
	e.Err = err
	return e
}

// WithSuggestion replaces the default suggestion.
func (e *Error) WithSuggestion(format string, args ...any) *Error {
	e.Suggestion = clipTo(fmt.Sprintf(format, args...), MaxMessageBytes)
	return e
}

// Failed is a handler's error for a step that failed for a reason outside
// the caller's input (a trace that could not attach, a program that
// failed): EXECUTION_FAILED with the error's text. A cancellation or a
// deadline passes through as it is, for AsError to name.
func Failed(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return Wrap(ExecutionFailed, err, "%v", err)
}

// AsError turns any error a handler returned into a tool Error. Handlers
// should return *Error; anything else is a bug or an unexpected system error
// and becomes INTERNAL (its text is kept, as it names no secret by contract
// of the packages below).
func AsError(err error) *Error {
	var te *Error
	if errors.As(err, &te) {
		return te
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return Wrap(Timeout, err, "the call ran out of time")
	case errors.Is(err, context.Canceled):
		return Wrap(Cancelled, err, "the call was cancelled")
	}
	return Wrap(Internal, err, "%v", err)
}

// ErrorInfo is the error object of the envelope (spec 000 section 3.1).
type ErrorInfo struct {
	Code        string `json:"code" jsonschema:"stable error code, e.g. INVALID_PARAMS"`
	Message     string `json:"message" jsonschema:"what went wrong and what is allowed"`
	Recoverable bool   `json:"recoverable" jsonschema:"true when a changed or repeated call can succeed"`
	Suggestion  string `json:"suggestion,omitempty" jsonschema:"the next call to make"`
	// RetryAfterMS is rounded up, so that waiting it is always enough.
	RetryAfterMS int64 `json:"retry_after_ms,omitempty" jsonschema:"with BUSY and RATE_LIMITED: milliseconds to wait before calling again"`
}

func (e *Error) info() *ErrorInfo {
	return &ErrorInfo{Code: string(e.Code), Message: e.Message, Recoverable: e.Recoverable, Suggestion: e.Suggestion,
		RetryAfterMS: (e.RetryAfter + time.Millisecond - 1).Milliseconds()}
}
