package execx

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestCapture(t *testing.T) {
	long := strings.Repeat("a", MaxLine)
	type out struct {
		Kept      string
		Truncated bool
		Total     int64
		Lines     []string
	}
	tests := []struct {
		name   string
		max    int
		nul    bool
		writes []string
		want   out
	}{
		{
			name:   "under the cap",
			max:    100,
			writes: []string{"a\nb", "c\n"},
			want:   out{Kept: "a\nbc\n", Total: 5, Lines: []string{"a", "bc"}},
		},
		{
			name:   "cap hit mid write, lines keep coming",
			max:    3,
			writes: []string{"ab\ncd\n", "ef\n"},
			want:   out{Kept: "ab\n", Truncated: true, Total: 9, Lines: []string{"ab", "cd", "ef"}},
		},
		{
			name:   "exactly at the cap",
			max:    3,
			writes: []string{"ab\n"},
			want:   out{Kept: "ab\n", Total: 3, Lines: []string{"ab"}},
		},
		{
			name:   "empty lines and a last line without newline",
			max:    100,
			writes: []string{"\n\nx"},
			want:   out{Kept: "\n\nx", Total: 3, Lines: []string{"", "", "x"}},
		},
		{
			name:   "default cap",
			writes: []string{"x"},
			want:   out{Kept: "x", Total: 1, Lines: []string{"x"}},
		},
		{
			name:   "line of exactly MaxLine across writes",
			max:    1,
			writes: []string{long[:10], long[10:], "\nz\n"},
			want:   out{Kept: "a", Truncated: true, Total: MaxLine + 3, Lines: []string{long, "z"}},
		},
		{
			name:   "overlong line arrives in pieces",
			max:    1,
			writes: []string{long + long + "bb\n"},
			want:   out{Kept: "a", Truncated: true, Total: 2*MaxLine + 3, Lines: []string{long, long, "bb"}},
		},
		{
			name:   "NUL-ended records keep their newlines",
			max:    100,
			nul:    true,
			writes: []string{"./a\nb\x00./c", "\x00\x00./\nd\n\x00./e"},
			want:   out{Kept: "./a\nb\x00./c\x00\x00./\nd\n\x00./e", Total: 20, Lines: []string{"./a\nb", "./c", "", "./\nd\n", "./e"}},
		},
		{
			name:   "overlong NUL-ended record arrives in pieces",
			max:    1,
			nul:    true,
			writes: []string{long + "\n" + long + "\x00z\x00"},
			want:   out{Kept: "a", Truncated: true, Total: 2*MaxLine + 4, Lines: []string{long, "\n" + long[1:], "a", "z"}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got out
			c := newCapture(tc.max, func(line []byte) { got.Lines = append(got.Lines, string(line)) }, lineEnd(tc.nul))
			for _, w := range tc.writes {
				if n, err := c.Write([]byte(w)); n != len(w) || err != nil {
					t.Fatalf("Write(%d bytes) = %d, %v; want all taken", len(w), n, err)
				}
			}
			c.finish()
			var kept []byte
			kept, got.Truncated, got.Total = c.result()
			got.Kept = string(kept)
			limit := tc.max
			if limit <= 0 {
				limit = DefaultMaxOutput
			}
			if cap(kept) > limit {
				t.Errorf("buffer capacity %d exceeds the cap %d", cap(kept), limit)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("capture (-got +want):\n%s", diff)
			}
		})
	}
}
