package search

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// rgLine is one of search_content's candidates as rg reports it.
type rgLine struct {
	Path string
	Line int
}

// rgOutput prints cands as rg does with --null --line-number --no-heading
// --max-columns=1: an empty line's bytes are printed (none), any other's
// are replaced by a note.
func rgOutput(cands []rgLine) []byte {
	var b bytes.Buffer
	for i, c := range cands {
		fmt.Fprintf(&b, "./%s\x00%d:", c.Path, c.Line)
		if i%3 != 0 {
			b.WriteString("[Omitted long matching line]")
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// joinAll splits out at newlines, as execx hands rg's stdout over, and
// parses what join makes of the lines.
func joinAll(out []byte) ([]rgLine, int) {
	var r rgRecords
	var got []rgLine
	file := ""
	for _, line := range bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n")) {
		rec, ok := r.join(line)
		if !ok {
			continue
		}
		p, n, ok := parseRgLine(rec, file)
		if ok {
			file = p
			got = append(got, rgLine{p, n})
		}
	}
	return got, r.dropped
}

// Whatever newlines the names hold (none, several, first, last, nothing
// but newlines), each record comes back whole, under its own path, in
// order: a piece without a NUL is only ever the head of the next path.
func TestRgRecordsJoinGeneratedNames(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	alphabet := []string{"a", "b", "\n", "\n", "/", ":", "1", ".", " ", "\r", "\xff"}
	for round := range 200 {
		var cands []rgLine
		for range 1 + rnd.IntN(20) {
			var name strings.Builder
			for range 1 + rnd.IntN(12) {
				name.WriteString(alphabet[rnd.IntN(len(alphabet))])
			}
			for range 1 + rnd.IntN(3) {
				cands = append(cands, rgLine{name.String(), 1 + rnd.IntN(1000)})
			}
		}
		got, dropped := joinAll(rgOutput(cands))
		if diff := cmp.Diff(cands, got); diff != "" || dropped != 0 {
			t.Fatalf("round %d: %d dropped (-rg +joined):\n%s", round, dropped, diff)
		}
	}
}

// A path up to rgPathMax bytes ("./" included) is joined; a longer one's
// record is dropped and counted, its head never held past the bound, and
// the records after it are read as before.
func TestRgRecordsJoinBound(t *testing.T) {
	longest := strings.Repeat("x", rgPathMax/2-2) + "\n" + strings.Repeat("y", rgPathMax/2-1)
	tooLong := "\n" + longest
	manyLines := strings.Repeat("z\n", rgPathMax) + "end"
	in := []rgLine{{"a\nb", 1}, {longest, 2}, {tooLong, 3}, {"c", 4}, {manyLines, 5}, {"d\ne", 6}}
	got, dropped := joinAll(rgOutput(in))
	want := []rgLine{{"a\nb", 1}, {longest, 2}, {"c", 4}, {"d\ne", 6}}
	if diff := cmp.Diff(want, got); diff != "" || dropped != 2 {
		t.Errorf("%d dropped, want 2 (-want +got):\n%s", dropped, diff)
	}
	var r rgRecords
	for range 3 * rgPathMax {
		r.join([]byte("z"))
		if len(r.head) > rgPathMax {
			t.Fatalf("head grew to %d bytes", len(r.head))
		}
	}
}
