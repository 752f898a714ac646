package store

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestHandlesNewestFirstWithoutExpired(t *testing.T) {
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now, HandleTTL: 10 * time.Minute})
	ctx := context.Background()
	var ids []string
	for i := range 4 {
		h, err := s.PutHandle(ctx, "test", map[string]any{"n": i}, []byte("x\ny\n"))
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, h.ID)
		clk.Advance(4 * time.Minute)
	}
	// The first two have expired by now; the newest comes first.
	got, err := s.Handles(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var gotIDs []string
	for _, h := range got {
		gotIDs = append(gotIDs, h.ID)
		if h.Size != 4 || h.Lines != 2 || h.Type != "test" || h.Meta["n"] == nil {
			t.Errorf("handle %+v lacks its description", h)
		}
	}
	if diff := cmp.Diff([]string{ids[3], ids[2]}, gotIDs); diff != "" {
		t.Errorf("Handles (-want +got):\n%s", diff)
	}
	if one, _ := s.Handles(ctx, 1); len(one) != 1 || one[0].ID != ids[3] {
		t.Errorf("Handles(1) = %+v, want the newest", one)
	}
}
