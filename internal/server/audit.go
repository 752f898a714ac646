package server

import (
	"context"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// audit records one call in the store. It runs on its own short context so
// that a call cancelled by the client is still recorded; a failure to record
// is logged, never turned into a failed call.
func (s *Server) audit(inv tool.Invocation, res tool.Result) {
	if s.opts.Store == nil {
		return
	}
	rec := store.CallRecord{
		Time:        time.Now().Add(-res.Duration),
		Tool:        inv.Def.Spec.Name,
		Session:     inv.Session,
		ArgsSummary: summarizeArgs(inv.Args),
		Outcome:     "ok",
		Duration:    res.Duration,
		BytesOut:    int64(len(res.JSON)),
		// What came of [confirm]: "asked" when the question went back to
		// a 2026-07-28 client, whose next call records the answer.
		Confirmation: string(res.Confirmation),
	}
	if res.Err != nil {
		rec.Outcome, rec.ErrorCode = "error", string(res.Err.Code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := s.opts.Store.RecordCall(ctx, rec); err != nil {
		s.log.Warn("recording a call", "tool", rec.Tool, "err", err)
	}
}
