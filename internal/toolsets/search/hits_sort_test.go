package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// sortHits orders as the sort.Slice it replaced: by path, then line, with
// paths compared bytewise (a path may hold any byte but NUL), whether the
// hits come a file at a time (as the checking goroutines give them), in
// runs of one file that interleave, or in no order at all.
func TestSortHitsByPathThenLine(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	paths := []string{"a.go", "a/b.go", "a.go\n", "A.go", "é.go", "a", "b/\xff.go", "a-b.go"}
	shuffled := make([]Hit, 3000)
	for i := range shuffled {
		shuffled[i] = Hit{Path: paths[r.IntN(len(paths))], Line: r.IntN(500) + 1, Snippet: fmt.Sprint(i)}
	}
	byFile := fileRuns(r, 900)
	interleaved := slices.Concat(byFile, byFile[:100]) // runs of a path again, their lines among the first's
	for name, hits := range map[string][]Hit{"shuffled": shuffled, "a file at a time": byFile, "interleaved": interleaved} {
		t.Run(name, func(t *testing.T) { checkSortHits(t, hits) })
	}
}

// fileRuns are hits as the checking goroutines give them: files in no
// order, each file's hits in line order.
func fileRuns(r *rand.Rand, files int) []Hit {
	var hits []Hit
	for _, f := range r.Perm(files) {
		path := fmt.Sprintf("src/pkg%03d/file%02d.go", f/10, f%10)
		line := 0
		for range 1 + r.IntN(5) {
			line += 1 + r.IntN(100)
			hits = append(hits, Hit{Path: path, Line: line})
		}
	}
	return hits
}

func checkSortHits(t *testing.T, hits []Hit) {
	want := slices.Clone(hits)
	sort.SliceStable(want, func(i, j int) bool {
		if want[i].Path != want[j].Path {
			return want[i].Path < want[j].Path
		}
		return want[i].Line < want[j].Line
	})
	got := slices.Clone(hits)
	sortHits(got)
	for i := range got {
		if got[i].Path != want[i].Path || got[i].Line != want[i].Line {
			t.Fatalf("hit %d: %q:%d, want %q:%d", i, got[i].Path, got[i].Line, want[i].Path, want[i].Line)
		}
	}
}

func BenchmarkSortHits(b *testing.B) {
	hits := fileRuns(rand.New(rand.NewPCG(1, 2)), 900)
	work := make([]Hit, len(hits))
	b.Run("sortHits", func(b *testing.B) {
		for b.Loop() {
			copy(work, hits)
			sortHits(work)
		}
	})
	b.Run("sort.Slice", func(b *testing.B) {
		for b.Loop() {
			copy(work, hits)
			sort.Slice(work, func(i, j int) bool {
				if work[i].Path != work[j].Path {
					return work[i].Path < work[j].Path
				}
				return work[i].Line < work[j].Line
			})
		}
	})
}
