package server

import (
	"sync/atomic"
	"testing"
	"time"
)

// fakeTrim is an idleTrim whose allocation count the test sets and whose
// trims it counts.
func fakeTrim(quiet time.Duration) (*idleTrim, *atomic.Uint64, chan struct{}) {
	var alloc atomic.Uint64
	trims := make(chan struct{}, 16)
	t := &idleTrim{quiet: quiet, minAlloc: 1000, allocated: alloc.Load, free: func() { trims <- struct{}{} }}
	return t, &alloc, trims
}

func TestIdleTrimAfterQuiet(t *testing.T) {
	trim, alloc, trims := fakeTrim(time.Millisecond)
	trim.begin()
	alloc.Add(5000)
	trim.end()
	select {
	case <-trims:
	case <-time.After(30 * time.Second):
		t.Fatal("no trim after the last request ended")
	}
	// Quiet again with nothing allocated since: no second trim.
	trim.begin()
	trim.end()
	select {
	case <-trims:
		t.Fatal("trimmed again though nothing was allocated since")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestIdleTrimNeverWhileARequestIsInFlight(t *testing.T) {
	trim, alloc, trims := fakeTrim(time.Millisecond)
	trim.begin() // a long call
	trim.begin()
	alloc.Add(5000)
	trim.end() // a short one ends beside it
	select {
	case <-trims:
		t.Fatal("trimmed while a request was in flight")
	case <-time.After(50 * time.Millisecond):
	}
	trim.end()
	select {
	case <-trims:
	case <-time.After(30 * time.Second):
		t.Fatal("no trim after the long call ended")
	}
}

func TestIdleTrimSkipsSmallAllocations(t *testing.T) {
	trim, alloc, trims := fakeTrim(time.Millisecond)
	trim.begin()
	alloc.Add(10)
	trim.end()
	select {
	case <-trims:
		t.Fatal("trimmed after 10 bytes")
	case <-time.After(50 * time.Millisecond):
	}
}

func TestHeapAllocatedCounts(t *testing.T) {
	before := heapAllocated()
	sink = make([]byte, 1<<20)
	if after := heapAllocated(); after < before+1<<20 {
		t.Errorf("heapAllocated went from %d to %d over a 1 MiB allocation", before, after)
	}
}

var sink []byte
