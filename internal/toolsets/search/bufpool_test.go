package search

import (
	"bufio"
	"strings"
	"testing"
)

// What a search hands on is emptied: no bytes of its files in the read
// buffer, nothing left to read in the streaming reader, and a read buffer
// over the bound is not kept. sync.Pool may drop what it was given, so a
// fresh checkBufs is also a right answer; one still holding bytes never is.
func TestBufPoolHandsOnOnlyEmptiedBuffers(t *testing.T) {
	var p bufPool
	br := bufio.NewReaderSize(strings.NewReader(strings.Repeat("x", 100)), 64<<10)
	if _, err := br.Peek(10); err != nil {
		t.Fatal(err)
	}
	p.put(&checkBufs{buf: make([]byte, 100, 16<<10), br: br})
	got := p.get()
	if len(got.buf) != 0 {
		t.Fatalf("a kept buffer came back with %d bytes in it", len(got.buf))
	}
	if got.br != nil && got.br.Buffered() != 0 {
		t.Fatalf("a kept reader came back with %d bytes buffered", got.br.Buffered())
	}
	p.put(&checkBufs{buf: make([]byte, 10, 2*inMemoryMax+1)})
	if got := p.get(); cap(got.buf) > 2*inMemoryMax {
		t.Fatalf("a %d-byte buffer was kept for the next search", cap(got.buf))
	}
}
