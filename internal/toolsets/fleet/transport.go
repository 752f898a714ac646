package fleet

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// sharedTransport is the one http.Transport of the toolset, made at its
// first use rather than when the server starts.
type sharedTransport struct {
	once sync.Once
	tr   atomic.Pointer[http.Transport]
}

func (s *sharedTransport) get() *http.Transport {
	s.once.Do(func() {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		tr.MaxIdleConnsPerHost = 4
		tr.IdleConnTimeout = time.Minute
		s.tr.Store(tr)
	})
	return s.tr.Load()
}

// closeIdle closes the idle connections, if there ever were any.
func (s *sharedTransport) closeIdle() {
	if tr := s.tr.Load(); tr != nil {
		tr.CloseIdleConnections()
	}
}
