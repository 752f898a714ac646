package testutil

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// JSONDiff compares two JSON documents as the values they hold, so that
// key order and spacing do not count, and returns cmp's diff (-want +got),
// empty when they agree. Either not being JSON fails t.
func JSONDiff(t testing.TB, want, got []byte) string {
	t.Helper()
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatalf("want is not JSON: %v", err)
	}
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("got is not JSON: %v", err)
	}
	return cmp.Diff(w, g)
}
