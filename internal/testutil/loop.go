package testutil

import (
	"testing"
	"time"
)

// Loop calls f in a goroutine, again and again with pause between calls (0:
// none), until the test ends: a workload for a tracer to observe.
func Loop(t testing.TB, pause time.Duration, f func()) {
	stop, done := make(chan struct{}), make(chan struct{})
	t.Cleanup(func() { close(stop); <-done })
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			case <-time.After(pause):
				f()
			}
		}
	}()
}
