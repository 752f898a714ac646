package figures

import (
	"testing"
	"time"
)

func TestHuman(t *testing.T) {
	for _, tc := range []struct{ got, want string }{
		{Count(0), "0"}, {Count(999), "999"}, {Count(1234), "1,234"}, {Count(1234567), "1,234,567"}, {Count(-1234), "-1,234"},
		{Span(-time.Second), "0 s"}, {Span(40 * time.Second), "40 s"}, {Span(3*time.Minute + 59*time.Second), "3 min"},
		{Counted(1, "file", "files"), "1 file"}, {Counted(0, "file", "files"), "0 files"}, {Counted(1234, "entry", "entries"), "1,234 entries"},
		{Span(5 * time.Hour), "5 h"}, {Span(47 * time.Hour), "47 h"}, {Span(73 * time.Hour), "3 days"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}
