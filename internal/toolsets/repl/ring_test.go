package repl

import (
	"bytes"
	"testing"
)

func TestRing(t *testing.T) {
	r := newRing(8)
	r.write([]byte("abc"))
	if got, from, dropped := r.read(0, 100); string(got) != "abc" || from != 0 || dropped != 0 {
		t.Fatalf("read(0) = %q %d %d", got, from, dropped)
	}
	r.write([]byte("defghij")) // 10 bytes written, 8 kept: "cdefghij"
	if r.start() != 2 || r.end() != 10 {
		t.Fatalf("window [%d,%d), want [2,10)", r.start(), r.end())
	}
	got, from, dropped := r.read(0, 100)
	if string(got) != "cdefghij" || from != 2 || dropped != 2 {
		t.Fatalf("read(0) after wrap = %q from %d dropped %d", got, from, dropped)
	}
	if got, from, _ := r.read(5, 3); string(got) != "fgh" || from != 5 {
		t.Fatalf("read(5,3) = %q from %d", got, from)
	}
	if got, from, _ := r.read(99, 3); len(got) != 0 || from != 10 {
		t.Fatalf("read past end = %q from %d", got, from)
	}
	r.write([]byte("0123456789ABCDEFGHIJ")) // larger than the ring
	if got, from, _ := r.read(r.start(), 100); string(got) != "CDEFGHIJ" || from != 22 {
		t.Fatalf("after an oversized write: %q from %d", got, from)
	}
}

// FuzzRing checks the ring against a plain slice holding the whole stream.
func FuzzRing(f *testing.F) {
	f.Add([]byte("hello world"), uint8(3), uint8(4), int64(2))
	f.Fuzz(func(t *testing.T, data []byte, size, split uint8, off int64) {
		if size == 0 {
			return
		}
		r := newRing(int(size))
		cut := int(split) % (len(data) + 1)
		r.write(data[:cut])
		r.write(data[cut:])
		got, from, dropped := r.read(off, 1<<20)
		start := max(0, int64(len(data))-int64(size))
		want := off
		if want < start {
			want = start
		}
		want = min(want, int64(len(data)))
		if from != want || !bytes.Equal(got, data[want:]) {
			t.Fatalf("read(%d) = %q from %d, want %q from %d", off, got, from, data[want:], want)
		}
		if off < start && dropped != start-off || off >= start && dropped != 0 {
			t.Fatalf("dropped %d for off %d and start %d", dropped, off, start)
		}
	})
}
