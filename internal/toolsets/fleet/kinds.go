package fleet

import (
	"sync"
	"time"
)

// kindsTTL is how long a host's word on whether a tool is read-only is
// kept. Its tools/list (every schema of every tool it serves, 140 KiB with
// every toolset) was a quarter of a fan-out's CPU when asked on every
// call; a host whose operator changes what it serves is believed again
// within a minute.
const kindsTTL = time.Minute

// remoteKinds remembers, per endpoint and tool, whether the host's
// tools/list marked the tool read-only.
type remoteKinds struct {
	mu   sync.Mutex
	seen map[kindKey]kindSeen
}

type kindKey struct{ endpoint, tool string }

type kindSeen struct {
	readOnly bool
	at       time.Time
}

// get returns what the host said within kindsTTL of now.
func (k *remoteKinds) get(endpoint, tool string, now time.Time) (readOnly, known bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	s, ok := k.seen[kindKey{endpoint, tool}]
	if !ok || now.Sub(s.at) > kindsTTL {
		return false, false
	}
	return s.readOnly, true
}

// put records what the host said, and forgets what is stale, so the map
// holds no more than the last minute's endpoints and tools.
func (k *remoteKinds) put(endpoint, tool string, readOnly bool, now time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.seen == nil {
		k.seen = map[kindKey]kindSeen{}
	}
	for key, s := range k.seen {
		if now.Sub(s.at) > kindsTTL {
			delete(k.seen, key)
		}
	}
	k.seen[kindKey{endpoint, tool}] = kindSeen{readOnly: readOnly, at: now}
}
