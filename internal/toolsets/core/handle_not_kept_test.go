package core

import (
	"context"
	"database/sql"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// A handle given out whose write failed afterwards (SQLite refused the
// row: a trigger stands in for a full disk) is not "not found" to
// handle_read: it answers HANDLE_NOT_KEPT, with the reason and the
// suggestion to call the producing tool again.
func TestHandleReadOfAHandleNotKept(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "s.db")
	st, err := store.Open(ctx, &store.Options{Path: path})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if _, err := st.Handles(ctx, 0); err != nil { // the schema
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec(`CREATE TRIGGER refuse_handles BEFORE INSERT ON handles BEGIN SELECT RAISE(ABORT, 'no room left'); END`); err != nil {
		t.Fatal(err)
	}
	h, err := st.PutHandleAsync(ctx, "search_hits", nil, []byte("{\"line\":1}\n"))
	if err != nil {
		t.Fatal(err)
	}
	d := New(st).handleRead()
	res := (&tool.Runner{}).Run(ctx, tool.Invocation{Def: d, Args: json.RawMessage(`{"handle":"` + h.ID + `"}`)})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Error(err)
	}
	if res.Err == nil || res.Err.Code != tool.HandleNotKept {
		t.Fatalf("want HANDLE_NOT_KEPT, got %s", res.JSON)
	}
	if !strings.Contains(res.Err.Message, h.ID) || !strings.Contains(res.Err.Message, "no room left") || !strings.Contains(res.Err.Suggestion, "call the tool that produced it again") {
		t.Errorf("the error must name the handle, say why and what to do: %s", res.JSON)
	}
	if st.HandleWriteStats().Failed != 1 {
		t.Errorf("stats %+v: want the failure counted", st.HandleWriteStats())
	}
}
