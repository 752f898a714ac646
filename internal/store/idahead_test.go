package store

import (
	"context"
	"testing"
	"time"
)

// peek reports the ID checked ahead for typ, if any, without taking it.
func (a *aheadIDs) peek(typ string) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.byTy[typ]
	return id.id, ok
}

// TestIDCheckedAheadServesTheNextHandle: the ID CheckIDAhead chose and
// checked is the next handle of its type's, once; the handle is kept under
// it and read back; the handle after gets another, checked as before.
func TestIDCheckedAheadServesTheNextHandle(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	ctx := context.Background()
	s.CheckIDAhead("search_hits")
	var ahead string
	waitUntil(t, "the ID checked ahead", func() bool { id, ok := s.ahead.peek("search_hits"); ahead = id; return ok })
	if !idPattern().MatchString(ahead) {
		t.Fatalf("ID checked ahead %q is not a handle ID", ahead)
	}
	if _, ok := s.ahead.peek("search_files"); ok {
		t.Error("an ID checked ahead for search_hits is there for search_files too")
	}
	clk.Advance(300 * time.Millisecond)
	put := func() string {
		id, err := s.PutHandleLater(ctx, "search_hits", map[string]any{"pattern": "x"}, int64(len(asyncPayload)), func() []byte { return asyncPayload })
		if err != nil {
			t.Fatalf("PutHandleLater: %v", err)
		}
		return id
	}
	first, second := put(), put()
	if first != ahead || second == ahead {
		t.Errorf("handles kept under %s then %s; want the one checked ahead, %s, then another", first, second, ahead)
	}
	for _, id := range []string{first, second} {
		if sl, err := s.ReadWindow(ctx, id, Window{Unit: Lines}); err != nil || sl.Content != string(asyncPayload) {
			t.Errorf("reading %s: %q, %v; want %q", id, sl.Content, err, asyncPayload)
		}
	}
}

// TestIDCheckedAheadExpires: an ID checked more than aheadFor before the
// handle is made is not used (its time would be the handle's), nor one for
// a handle made before it was checked.
func TestIDCheckedAheadExpires(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	s.CheckIDAhead("search_files")
	waitUntil(t, "the ID checked ahead", func() bool { _, ok := s.ahead.peek("search_files"); return ok })
	if _, ok := s.ahead.take("search_files", clk.Now().Add(aheadFor+time.Millisecond)); ok {
		t.Error("an ID checked ahead was given out past aheadFor")
	}
	if _, ok := s.ahead.peek("search_files"); ok {
		t.Error("an ID too old to give out was kept")
	}
	s.CheckIDAhead("search_files")
	waitUntil(t, "the ID checked ahead", func() bool { _, ok := s.ahead.peek("search_files"); return ok })
	if _, ok := s.ahead.take("search_files", clk.Now().Add(-time.Millisecond)); ok {
		t.Error("an ID checked ahead was given out for a handle made before its check")
	}
}
