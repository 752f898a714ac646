package store

import (
	"context"
	"errors"
	"testing"
)

// A handle put with its payload still to be written is given out before
// the payload exists: encode runs after PutHandleLater returned, readers
// wait for it and the write, and then read exactly what it wrote, with its
// lines counted from those bytes.
func TestPutHandleLaterEncodesAfterReturning(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	hold, ran := make(chan struct{}), make(chan struct{})
	encode := func() []byte {
		close(ran)
		<-hold
		return asyncPayload
	}
	id, err := s.PutHandleLater(ctx, "search_hits", map[string]any{"pattern": "x"}, int64(len(asyncPayload)), encode)
	if err != nil {
		t.Fatal(err)
	}
	if st := s.HandleWriteStats(); st.Pending != 1 || st.PendingBytes != int64(len(asyncPayload)) || st.Deferred != 1 {
		t.Fatalf("stats while the payload is being encoded: %+v", st)
	}
	<-ran // encode is running, on its own goroutine: PutHandleLater returned first
	read := make(chan error, 1)
	var sl Slice
	go func() {
		var err error
		sl, err = s.ReadWindow(ctx, id, Window{Unit: Lines})
		read <- err
	}()
	waitUntil(t, "the reader to wait for the encoding", func() bool { return s.pendingWaiters(id) == 1 || len(read) > 0 })
	close(hold)
	if err := <-read; err != nil || sl.Content != string(asyncPayload) || sl.Total != 2 {
		t.Errorf("ReadWindow after the encoding: %+v, %v; want the payload's 2 lines", sl, err)
	}
	h, err := s.Handle(ctx, id)
	if err != nil || h.Size != int64(len(asyncPayload)) || h.Lines != 2 || h.Meta["pattern"] != "x" {
		t.Errorf("Handle: %+v, %v", h, err)
	}
}

// A payload encoded to another size than promised is not kept: the budget
// and the pending bounds were checked against the promise.
func TestPutHandleLaterHoldsEncodeToItsSize(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	id, err := s.PutHandleLater(ctx, "search_hits", nil, 3, func() []byte { return asyncPayload })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.ReadWindow(ctx, id, Window{Unit: Lines}); !errors.Is(err, ErrHandleNotKept) {
		t.Errorf("ReadWindow of a payload longer than sized: %v; want ErrHandleNotKept", err)
	}
	if st := s.HandleWriteStats(); st.Failed != 1 {
		t.Errorf("stats: %+v; want 1 failed", st)
	}
}

// Over the budget a put is refused before anything is encoded; past the
// bound on pending bytes, encode runs before the handle is given out and
// the row is committed then, as PutHandle writes it.
func TestPutHandleLaterBounds(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	encoded := 0
	encode := func() []byte { encoded++; return asyncPayload }
	if _, err := s.PutHandleLater(ctx, "search_hits", nil, s.budget+1, encode); err == nil || encoded != 0 {
		t.Errorf("a put over the budget: %v, encoded %d times; want refused, never encoded", err, encoded)
	}
	s.pending.maxBytes = int64(len(asyncPayload)) - 1
	id, err := s.PutHandleLater(ctx, "search_hits", nil, int64(len(asyncPayload)), encode)
	if err != nil || encoded != 1 {
		t.Fatalf("a put over the pending bound: %v, encoded %d times", err, encoded)
	}
	var size, lines int64
	if err := s.db.QueryRow(`SELECT size, lines FROM handles WHERE id = ?`, id).Scan(&size, &lines); err != nil || size != int64(len(asyncPayload)) || lines != 2 {
		t.Errorf("the row when PutHandleLater returned: size %d, lines %d, %v; want it committed", size, lines, err)
	}
	if st := s.HandleWriteStats(); st.Inline != 1 || st.Deferred != 0 {
		t.Errorf("stats: %+v; want 1 inline", st)
	}
}
