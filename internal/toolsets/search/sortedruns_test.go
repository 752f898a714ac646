package search

import (
	"fmt"
	"math/rand/v2"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// TestSortedRuns: whatever the count (none, one, a run exactly, one past
// it, several runs and an odd one out) and whatever the order the paths
// come in, sorted gives every one of them, in order.
func TestSortedRuns(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, runLen - 1, runLen, runLen + 1, 2 * runLen, 3*runLen + 7, 5 * runLen} {
		for _, order := range []string{"random", "ascending", "descending", "repeats"} {
			want := make([]string, n)
			for i := range want {
				want[i] = fmt.Sprintf("dir%03d/f%05d_test.go", rng.IntN(50), rng.IntN(100000))
				if order == "repeats" {
					want[i] = fmt.Sprintf("d/%d", i%3)
				}
			}
			in := slices.Clone(want)
			slices.Sort(want)
			switch order {
			case "random", "repeats":
				rng.Shuffle(len(in), func(i, j int) { in[i], in[j] = in[j], in[i] })
			case "ascending":
				in = slices.Clone(want)
			case "descending":
				in = slices.Clone(want)
				slices.Reverse(in)
			}
			var r sortedRuns
			for _, p := range in {
				r.add(p)
			}
			if r.len() != n {
				t.Fatalf("%d %s: len %d", n, order, r.len())
			}
			if got := r.sorted(); !slices.Equal(got, want) {
				t.Errorf("%d paths, %s: sorted gives %d paths, not in order or not all of them", n, order, len(got))
			}
		}
	}
}

// BenchmarkSortedRunsTail is what ordering search_files' names costs once
// rg has ended: the names of GOROOT/src's test files, in the order rg
// lists them, sorted at the end (whole) against merged from the runs
// sorted as they filled (runs).
func BenchmarkSortedRunsTail(b *testing.B) {
	src := goSrc(b)
	out, err := exec.Command("rg", "--no-config", "--files", "--glob=*_test.go", src).Output()
	if err != nil {
		b.Fatal(err)
	}
	names := strings.Split(strings.TrimSpace(string(out)), "\n")
	b.Run("whole", func(b *testing.B) {
		for b.Loop() {
			slices.Sort(slices.Clone(names))
		}
	})
	b.Run("runs", func(b *testing.B) {
		for b.Loop() {
			b.StopTimer()
			var r sortedRuns
			for _, n := range names {
				r.add(n)
			}
			b.StartTimer()
			r.sorted()
		}
	})
}
