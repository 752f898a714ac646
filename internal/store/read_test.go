package store

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// window is what a test checks of a Slice.
type window struct {
	Content    string
	Returned   int64
	Total      int64
	HasMore    bool
	NextOffset int64
	Truncated  bool
}

func windowOf(sl Slice) window {
	return window{sl.Content, sl.Returned, sl.Total, sl.HasMore, sl.NextOffset, sl.Truncated}
}

func TestReadHandleWindows(t *testing.T) {
	const text = "hello\nworld\n"
	const mixed = "l0\nl1\r\nl2\n\nl4" // five lines, the last without '\n'
	const runes = "aé€😀"               // 1+2+3+4 bytes
	tests := []struct {
		name    string
		payload string
		offset  int64
		limit   int64
		unit    Unit
		want    window
		wantErr error
	}{
		{"bytes first", text, 0, 5, Bytes, window{"hello", 5, 12, true, 5, false}, nil},
		{"bytes last partial window", text, 10, 5, Bytes, window{"d\n", 2, 12, false, 12, false}, nil},
		{"bytes default limit", text, 0, 0, Bytes, window{text, 12, 12, false, 12, false}, nil},
		{"bytes at end", text, 12, 5, Bytes, window{"", 0, 12, false, 12, false}, nil},
		{"bytes past end", text, 13, 5, Bytes, window{}, ErrOffsetOutOfRange},
		{"bytes rune cut at end", runes, 0, 2, Bytes, window{"a", 1, 10, true, 1, false}, nil},
		{"bytes whole rune", runes, 1, 2, Bytes, window{"é", 2, 10, true, 3, false}, nil},
		{"bytes window smaller than rune", runes, 3, 1, Bytes, window{"€", 3, 10, true, 6, false}, nil},
		{"bytes cut inside 4-byte rune", runes, 3, 6, Bytes, window{"€", 3, 10, true, 6, false}, nil},
		{"bytes to the end", runes, 6, 100, Bytes, window{"😀", 4, 10, false, 10, false}, nil},
		{"bytes empty payload", "", 0, 10, Bytes, window{"", 0, 0, false, 0, false}, nil},
		{"bytes empty payload past end", "", 1, 10, Bytes, window{}, ErrOffsetOutOfRange},
		{"lines first", mixed, 0, 2, Lines, window{"l0\nl1\r\n", 2, 5, true, 2, false}, nil},
		{"lines last partial window", mixed, 3, 5, Lines, window{"\nl4", 2, 5, false, 5, false}, nil},
		{"lines last line alone", mixed, 4, 0, Lines, window{"l4", 1, 5, false, 5, false}, nil},
		{"lines empty line", mixed, 3, 1, Lines, window{"\n", 1, 5, true, 4, false}, nil},
		{"lines at end", mixed, 5, 1, Lines, window{"", 0, 5, false, 5, false}, nil},
		{"lines past end", mixed, 6, 1, Lines, window{}, ErrOffsetOutOfRange},
		{"lines trailing newline", text, 1, 10, Lines, window{"world\n", 1, 2, false, 2, false}, nil},
		{"lines trailing newline at end", text, 2, 10, Lines, window{"", 0, 2, false, 2, false}, nil},
		{"lines empty payload", "", 0, 0, Lines, window{"", 0, 0, false, 0, false}, nil},
		{"lines empty payload past end", "", 1, 0, Lines, window{}, ErrOffsetOutOfRange},
		{"lines only newlines", "\n\n\n", 1, 1, Lines, window{"\n", 1, 3, true, 2, false}, nil},
	}
	s := openTest(t, nil)
	ctx := context.Background()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := s.PutHandle(ctx, "test", nil, []byte(tc.payload))
			if err != nil {
				t.Fatal(err)
			}
			sl, err := s.ReadHandle(ctx, h.ID, tc.offset, tc.limit, tc.unit)
			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("ReadHandle error = %v, want %v", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(windowOf(sl), tc.want); diff != "" {
				t.Errorf("window (-got +want):\n%s", diff)
			}
			if sl.Unit != tc.unit || sl.Offset != tc.offset {
				t.Errorf("unit, offset = %s, %d, want %s, %d", sl.Unit, sl.Offset, tc.unit, tc.offset)
			}
			if diff := cmp.Diff(sl.Handle, h, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("handle (-got +want):\n%s", diff)
			}
		})
	}
}

func TestReadHandleLimits(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	line := strings.Repeat("x", 999) + "\n"
	tests := []struct {
		name    string
		payload string
		offset  int64
		limit   int64
		unit    Unit
		want    window
	}{
		{"lines default", strings.Repeat("a\n", 300), 0, 0, Lines,
			window{strings.Repeat("a\n", 200), 200, 300, true, 200, false}},
		{"lines capped", strings.Repeat("a\n", 3000), 500, 5000, Lines,
			window{strings.Repeat("a\n", 2000), 2000, 3000, true, 2500, false}},
		{"bytes default", strings.Repeat("a", 100<<10), 0, 0, Bytes,
			window{strings.Repeat("a", 64<<10), 64 << 10, 100 << 10, true, 64 << 10, false}},
		{"bytes capped", strings.Repeat("a", 3<<20), 0, 2 << 20, Bytes,
			window{strings.Repeat("a", 1<<20), 1 << 20, 3 << 20, true, 1 << 20, false}},
		{"lines stop at the byte cap", strings.Repeat(strings.Repeat(line, 1000), 5), 3, 2000, Lines,
			window{strings.Repeat(line, 1048), 1048, 5000, true, 1051, false}},
		{"one line over the byte cap", "a\n" + strings.Repeat("é", 1<<20) + "\nb\n", 1, 10, Lines,
			window{strings.Repeat("é", 1<<19), 1, 3, true, 2, true}},
		{"line over the cap cut at a rune", "a\n" + "x" + strings.Repeat("é", 1<<20), 1, 10, Lines,
			window{"x" + strings.Repeat("é", 1<<19-1), 1, 2, false, 2, true}},
		{"line over the cap after whole lines", "a\nb\n" + strings.Repeat("c", 2<<20), 0, 10, Lines,
			window{"a\nb\n", 2, 3, true, 2, false}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := s.PutHandle(ctx, "test", nil, []byte(tc.payload))
			if err != nil {
				t.Fatal(err)
			}
			sl, err := s.ReadHandle(ctx, h.ID, tc.offset, tc.limit, tc.unit)
			if err != nil {
				t.Fatal(err)
			}
			got := windowOf(sl)
			if got.Content != tc.want.Content {
				t.Errorf("content: got %d bytes, want %d", len(got.Content), len(tc.want.Content))
			}
			got.Content, tc.want.Content = "", ""
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("window (-got +want):\n%s", diff)
			}
		})
	}
}

func TestReadHandleBadInput(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	h, err := s.PutHandle(ctx, "test", nil, []byte("x\n"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		id       string
		offset   int64
		unit     Unit
		notFound bool
	}{
		{"empty id", "", 0, Lines, true},
		{"junk id", "'; DROP TABLE handles; --", 0, Lines, true},
		{"id with suffix", h.ID + "' OR '1'='1", 0, Lines, true},
		{"unknown id", "H_test_20000101T000000Z_00000000", 0, Lines, true},
		{"negative offset", h.ID, -1, Lines, false},
		{"bad unit", h.ID, 0, Unit("pages"), false},
		{"empty unit", h.ID, 0, Unit(""), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.ReadHandle(ctx, tc.id, tc.offset, 10, tc.unit)
			if err == nil {
				t.Fatal("ReadHandle succeeded")
			}
			if got := errors.Is(err, ErrHandleNotFound); got != tc.notFound {
				t.Errorf("errors.Is(%v, ErrHandleNotFound) = %v, want %v", err, got, tc.notFound)
			}
		})
	}
	// The table is still there.
	if _, err := s.ReadHandle(ctx, h.ID, 0, 0, Lines); err != nil {
		t.Errorf("reading a good handle after bad input: %v", err)
	}
}

// A window bounded in bytes: handle_read passes what fits its output cap.
func TestReadWindowMaxBytes(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	const text = "ab\ncd\nef\n"
	tests := []struct {
		name      string
		payload   string
		w         Window
		want      window
		wantStart int64
	}{
		{"bytes shortened", text, Window{Offset: 1, Limit: 100, Unit: Bytes, MaxBytes: 4}, window{"b\ncd", 4, 9, true, 5, false}, 1},
		{"bytes shortened at a rune", "aé€", Window{Unit: Bytes, MaxBytes: 5}, window{"aé", 3, 6, true, 3, false}, 0},
		{"bytes limit below the bound", text, Window{Unit: Bytes, Limit: 2, MaxBytes: 4}, window{"ab", 2, 9, true, 2, false}, 0},
		{"lines stop before the bound", text, Window{Offset: 1, Unit: Lines, MaxBytes: 5}, window{"cd\n", 1, 3, true, 2, false}, 3},
		{"lines whole within the bound", text, Window{Offset: 1, Unit: Lines, MaxBytes: 6}, window{"cd\nef\n", 2, 3, false, 3, false}, 3},
		{"a line over the bound is cut", "a\n" + strings.Repeat("é", 10) + "\nb\n", Window{Offset: 1, Unit: Lines, MaxBytes: 5}, window{"éé", 1, 3, true, 2, true}, 2},
		{"no bound is MaxByteLimit", text, Window{Unit: Lines}, window{text, 3, 3, false, 3, false}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h, err := s.PutHandle(ctx, "test", nil, []byte(tc.payload))
			if err != nil {
				t.Fatal(err)
			}
			sl, err := s.ReadWindow(ctx, h.ID, tc.w)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(windowOf(sl), tc.want); diff != "" {
				t.Errorf("window (-got +want):\n%s", diff)
			}
			if sl.Start != tc.wantStart {
				t.Errorf("start = %d, want %d", sl.Start, tc.wantStart)
			}
		})
	}
}
