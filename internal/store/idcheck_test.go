package store

import (
	"context"
	"path/filepath"
	"testing"
	"time"
)

// The kept statement is exact for committed handles: once prepared, it
// still sees a handle that another store on the same state directory (a
// second hostmcp process) commits afterwards, and a handle this store
// wrote after answering, once written; it does not see an ID never
// committed.
func TestIDCheckSeesHandlesCommittedAfterItWasPrepared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "hostmcp.db")
	a, b := openTest(t, &Options{Path: path}), openTest(t, &Options{Path: path})
	ctx := context.Background()
	never, err := newID("search_hits", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if taken, err := a.ids.taken(ctx, never); err != nil || taken {
		t.Fatalf("an ID never committed: taken %v, %v", taken, err)
	}
	if a.ids.stmt == nil {
		t.Fatal("the first check left no statement prepared")
	}
	prepared := a.ids.stmt

	other, err := b.PutHandle(ctx, "search_hits", nil, asyncPayload)
	if err != nil {
		t.Fatal(err)
	}
	id, err := a.PutHandleLater(ctx, "search_hits", nil, int64(len(asyncPayload)), func() []byte { return asyncPayload })
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.Handle(ctx, id); err != nil { // waits for the write
		t.Fatal(err)
	}
	for _, c := range []struct {
		what, id string
		want     bool
	}{
		{"committed by another store", other.ID, true},
		{"written after the answer", id, true},
		{"never committed", never, false},
	} {
		if taken, err := a.ids.taken(ctx, c.id); err != nil || taken != c.want {
			t.Errorf("%s (%s): taken %v, %v; want %v", c.what, c.id, taken, err, c.want)
		}
	}
	if a.ids.stmt != prepared {
		t.Error("the statement was prepared again; want it kept")
	}
}

// Closing the store releases the statement, and a store whose check never
// ran closes with nothing prepared.
func TestIDCheckClosedWithTheStore(t *testing.T) {
	used, unused := openTest(t, nil), openTest(t, nil)
	if _, err := used.ids.taken(context.Background(), "H_x_20260101T000000Z_00000000"); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Store{used, unused} {
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if s.ids.stmt != nil {
			t.Error("the statement outlived Close")
		}
	}
}
