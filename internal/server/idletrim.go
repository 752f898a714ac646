package server

import (
	"context"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Giving memory back when the server falls quiet. The Go runtime keeps the
// pages a burst of requests used (up to the next collection's goal, 4 MiB
// at least, and returns the rest over minutes), so a server that answered a
// tools/list, or a few calls, then waits for its agent for seconds or
// minutes, held about half a MiB more than it uses (issue 20 point 6). Once
// no request has been in flight for trimQuiet, and the requests since the
// last trim allocated trimMinAlloc or more, one collection runs and the
// free pages go back to the system (freeIdleMemory): a few ms of CPU
// with hostmcp's small heap, paid while nobody waits. A server kept busy
// (requests overlapping, as over HTTP under load) never falls quiet and
// never pays it.
const (
	trimQuiet    = 500 * time.Millisecond
	trimMinAlloc = 256 << 10
)

// idleTrim counts the requests in flight and trims after the quiet period
// that follows them. Its fields other than mu are fixed at construction, so
// that tests can stand in for the runtime.
type idleTrim struct {
	quiet     time.Duration
	minAlloc  uint64
	allocated func() uint64 // bytes allocated since the process started
	free      func()

	mu       sync.Mutex
	inFlight int
	timer    *time.Timer
	lastMark uint64 // allocated at the last trim
}

func newIdleTrim() *idleTrim {
	return &idleTrim{quiet: trimQuiet, minAlloc: trimMinAlloc, allocated: heapAllocated, free: freeIdleMemory}
}

// freeIdleMemory collects twice, then returns the free pages. The first
// collection only moves what sync.Pools hold (encoding/json's encoders,
// grown to the size of the last answer: a tools/list's 60 KB, several
// times) to their victim caches; the second frees them. The pools refill
// at the next request.
func freeIdleMemory() {
	runtime.GC()
	debug.FreeOSMemory()
}

// middleware is a receiving middleware: every request, notification
// included, counts as activity.
func (t *idleTrim) middleware(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		t.begin()
		defer t.end()
		return next(ctx, method, req)
	}
}

func (t *idleTrim) begin() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.inFlight++
	if t.timer != nil {
		t.timer.Stop()
	}
}

// end arms the timer when the last request in flight ends. A timer, not a
// goroutine: an idle server runs nothing until it fires, once.
func (t *idleTrim) end() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.inFlight--
	if t.inFlight > 0 {
		return
	}
	if t.timer == nil {
		t.timer = time.AfterFunc(t.quiet, t.fire)
		return
	}
	t.timer.Reset(t.quiet)
}

// fire trims if the server is still quiet and the requests since the last
// trim allocated enough to be worth a collection.
func (t *idleTrim) fire() {
	t.mu.Lock()
	if t.inFlight > 0 {
		t.mu.Unlock()
		return
	}
	now := t.allocated()
	if now-t.lastMark < t.minAlloc {
		t.mu.Unlock()
		return
	}
	t.lastMark = now
	t.mu.Unlock()
	t.free() // outside the lock: a request arriving meanwhile must not wait for it
}

// heapAllocated reads the runtime's cumulative count of bytes allocated,
// which it keeps without stopping the world (unlike runtime.ReadMemStats).
func heapAllocated() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
