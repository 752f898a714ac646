package store

import (
	"context"
	"sync"
	"time"
)

// IDs chosen and checked ahead. A search that will likely keep its hits
// as a handle says so when it starts (CheckIDAhead), and the ID the handle
// will get is chosen and checked against the committed handles then, on a
// goroutine of its own while rg runs; reserveID takes it instead of
// checking one on the answer's path, where the check cost about 0.3 ms
// after rg's run (cold: 27 us in a tight loop; bench/RESULTS.md, "A
// handle made on the answer's path costs less"). The check is the same
// one, so an ID is as sure to be free as one checked at the answer: a
// handle another process commits meanwhile under the same ID (one chance
// in 2^32 within the same second and type) fails its insert either way. An
// ID checked ahead serves one handle, made within aheadFor of its check,
// whose time it carries.

// aheadFor is how long an ID checked ahead stays usable: its time part is
// the handle's creation second, give or take this.
const aheadFor = time.Second

type aheadIDs struct {
	mu   sync.Mutex
	byTy map[string]aheadID // by handle type, at most one each
}

type aheadID struct {
	id string
	at time.Time
}

// CheckIDAhead chooses an ID for a handle of typ and checks it, on a
// goroutine of its own, for the next such handle made within aheadFor.
func (s *Store) CheckIDAhead(typ string) {
	go func() {
		at := s.now()
		id, err := newID(typ, at)
		if err != nil {
			return
		}
		if taken, err := s.ids.taken(context.Background(), id); err != nil || taken {
			return // the answer's path checks one as before
		}
		s.ahead.put(typ, aheadID{id: id, at: at})
	}()
}

func (a *aheadIDs) put(typ string, id aheadID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.byTy == nil {
		a.byTy = map[string]aheadID{}
	}
	a.byTy[typ] = id
}

// take gives out, once, the ID checked ahead for a handle of typ made at
// created, if there is one still usable.
func (a *aheadIDs) take(typ string, created time.Time) (string, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id, ok := a.byTy[typ]
	if !ok {
		return "", false
	}
	delete(a.byTy, typ)
	if d := created.Sub(id.at); d < 0 || d > aheadFor {
		return "", false
	}
	return id.id, true
}
