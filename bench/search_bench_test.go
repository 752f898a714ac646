package bench

import (
	"testing"
)

// manyPattern has about 2,500 hits in 600 files of GOROOT/src: more than an
// answer shows, so the call also keeps them all in a handle.
const manyPattern = `errors\.New\(`

// BenchmarkSearchVsRg is issue 20's point 3: search_content and
// search_files through the stdio client against ripgrep run directly on the
// same copy of GOROOT/src with the same query, one call of each after the
// other, so that the shared machine's load weighs on both alike (ratio is
// the median of the per-pair ratios; target at most 1.1).
//
//   - content-few: a regex with about 180 hits, no context lines, all of
//     them shown, against rg --line-number.
//   - content-many: manyPattern with the default 3 context lines and the
//     first 200 hits shown (every hit kept in a handle), against
//     rg --line-number --context=3.
//   - files: names containing _test.go (about 1,800, so also a handle),
//     against rg --files.
func BenchmarkSearchVsRg(b *testing.B) {
	src := goSrc(b)
	cs, _ := connectRoot(b, src)
	b.Run("content-few", func(b *testing.B) {
		loopPairs(b, func() {
			callTool(b, cs, "search_content", map[string]any{"pattern": benchPattern, "ignore_case": false, "context_lines": 0, "max_results": 200, "engine": "rg"})
		}, func() { rgDirect(b, src, "--line-number", "--regexp="+benchPattern) })
	})
	b.Run("content-many", func(b *testing.B) {
		loopPairs(b, func() {
			callTool(b, cs, "search_content", map[string]any{"pattern": manyPattern, "max_results": 200, "engine": "rg"})
		}, func() { rgDirect(b, src, "--line-number", "--context=3", "--regexp="+manyPattern) })
	})
	b.Run("files", func(b *testing.B) {
		loopPairs(b, func() {
			callTool(b, cs, "search_files", map[string]any{"pattern": "_test.go", "engine": "rg"})
		}, func() { rgDirect(b, src, "--files") })
	})
}
