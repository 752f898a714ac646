package bpfprog

import "testing"

func TestQuestion(t *testing.T) {
	hdr := []byte{0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}
	msg := func(rest ...byte) []byte { return append(append([]byte(nil), hdr...), rest...) }
	tests := []struct {
		name      string
		pkt       []byte
		want, typ string
	}{
		{"A", msg(3, 'w', 'w', 'w', 7, 'e', 'x', 'a', 'm', 'p', 'l', 'e', 3, 'c', 'o', 'm', 0, 0, 1, 0, 1), "www.example.com", "A"},
		{"AAAA", msg(2, 'g', 'o', 3, 'd', 'e', 'v', 0, 0, 28, 0, 1), "go.dev", "AAAA"},
		{"root NS", msg(0, 0, 2, 0, 1), ".", "NS"},
		{"unknown type", msg(1, 'x', 0, 0x01, 0x00, 0, 1), "x", "TYPE256"},
		{"cut in a label", msg(7, 'e', 'x', 'a'), "", ""},
		{"cut before the type", msg(1, 'x', 0, 0), "x", ""},
		{"a pointer, not allowed in a question", msg(1, 'x', 0xc0, 12), "x", ""},
		{"header only", hdr, ".", ""},
		{"short", hdr[:5], "", ""},
	}
	for _, tc := range tests {
		if name, typ := question(tc.pkt); name != tc.want || typ != tc.typ {
			t.Errorf("%s: got %q %q, want %q %q", tc.name, name, typ, tc.want, tc.typ)
		}
	}
}

func FuzzQuestion(f *testing.F) {
	f.Add([]byte{0x12, 0x34, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 'x', 0, 0, 1, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		name, _ := question(b)
		if len(name) > len(b) {
			t.Fatalf("a name of %d bytes from %d", len(name), len(b))
		}
	})
}
