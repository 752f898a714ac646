package config

import (
	"fmt"
	"time"
)

// LoadConf bounds the work the server takes on (issue 24): calls in flight,
// calls that start programs, each client's call rate, and HTTP requests
// being handled. Beyond them a call is refused at once (BUSY, RATE_LIMITED,
// HTTP 429) with a time to retry after, never queued without bound.
type LoadConf struct {
	// MaxCalls is how many tool calls run at once, all clients together;
	// QueuedCalls more may wait up to QueueWait for a slot.
	MaxCalls    int `toml:"max_calls"`
	QueuedCalls int `toml:"queued_calls"`
	// MaxProgramCalls is how many of those may be calls that start
	// programs (searches, profiles, traces, bpftrace's checks), and so how
	// many such children run at once; QueuedProgramCalls more may wait.
	MaxProgramCalls    int `toml:"max_program_calls"`
	QueuedProgramCalls int `toml:"queued_program_calls"`
	// QueueWait is the longest a queued call waits before it is refused.
	QueueWait Duration `toml:"queue_wait"`
	// CallsPerSecond and Burst are each client's token bucket: the bearer
	// token over HTTP, the session on stdio.
	CallsPerSecond float64 `toml:"calls_per_second"`
	Burst          int     `toml:"burst"`
	// MaxHTTPRequests is how many HTTP requests to /mcp are handled at
	// once; more are answered 429 before their body is read.
	MaxHTTPRequests int `toml:"max_http_requests"`
}

// DefaultLoad is generous for one busy agent and its subagents, measured
// in bench/RESULTS.md ("Load it can refuse").
func DefaultLoad() LoadConf {
	return LoadConf{
		MaxCalls:           64,
		QueuedCalls:        64,
		MaxProgramCalls:    8,
		QueuedProgramCalls: 16,
		QueueWait:          Duration{5 * time.Second},
		CallsPerSecond:     50,
		Burst:              100,
		MaxHTTPRequests:    256,
	}
}

func (c *Config) validateLoad() []error {
	var errs []error
	l := c.Load
	checkRange(&errs, "load.max_calls", l.MaxCalls, 1, 4096)
	checkRange(&errs, "load.queued_calls", l.QueuedCalls, 0, 4096)
	checkRange(&errs, "load.max_program_calls", l.MaxProgramCalls, 1, 1024)
	checkRange(&errs, "load.queued_program_calls", l.QueuedProgramCalls, 0, 4096)
	if l.MaxProgramCalls > l.MaxCalls {
		errs = append(errs, fmt.Errorf("load.max_program_calls %d: more than load.max_calls %d; a call that starts programs is a call too",
			l.MaxProgramCalls, l.MaxCalls))
	}
	if w := l.QueueWait.Duration; w <= 0 || w > time.Minute {
		errs = append(errs, fmt.Errorf("load.queue_wait %s: must be greater than zero and at most 1m", w))
	}
	if l.CallsPerSecond < 0.01 || l.CallsPerSecond > 1e6 {
		errs = append(errs, fmt.Errorf("load.calls_per_second %g: must be between 0.01 and 1000000", l.CallsPerSecond))
	}
	checkRange(&errs, "load.burst", l.Burst, 1, 1_000_000)
	checkRange(&errs, "load.max_http_requests", l.MaxHTTPRequests, 1, 65536)
	return errs
}
