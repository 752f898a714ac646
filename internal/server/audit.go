package server

import (
	"errors"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// audit hands one call's record to the store's background writer, which
// writes records in batches: the call's answer never waits on the database
// nor on another call's record. A record refused (the queue is full, the
// store closed) is logged, never turned into a failed call; the store
// counts the refused ones and writes a record of how many.
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
	if err := s.opts.Store.QueueCall(rec); err != nil && !errors.Is(err, store.ErrCallQueueFull) {
		// A full queue is logged once per batch by the store, with the
		// number of records it refused, not once per call.
		s.log.Warn("recording a call", "tool", rec.Tool, "err", err)
	}
}
