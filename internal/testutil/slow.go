package testutil

import "testing"

// Slow marks a test that is slow by nature rather than live: it builds a
// package or an image, installs modules, drives a browser. `go test -short`
// skips it with why; make test and CI, which do not pass -short, run it.
func Slow(t testing.TB, why string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("slow by nature (%s): -short leaves it to make test", why)
	}
}

// Cases is how many cases of a generated corpus a differential or property
// test runs: all of them, or under `go test -short` the first short of
// them. The corpus is the same either way (same seed, same order), so the
// short run is a prefix of the full one; a test that cycles through kinds
// of case keeps short a multiple of the cycle so each kind is in it.
func Cases(all, short int) int {
	if testing.Short() && short < all {
		return short
	}
	return all
}
