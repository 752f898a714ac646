package procs

import (
	"os/user"
	"strconv"
	"sync"
)

// Users resolves user ids to names and back, caching both ways: without
// cgo every lookup parses /etc/passwd, and a listing asks for the same few
// ids a thousand times. Entries never expire; a renamed user shows its old
// name until restart, which is what ps's own caches do too.
type Users struct {
	mu    sync.Mutex
	names map[int]string
}

// NewUsers returns an empty cache.
func NewUsers() *Users { return &Users{names: map[int]string{}} }

// Name returns the user name of uid, or the number when it has none.
func (u *Users) Name(uid int) string {
	if uid < 0 {
		return "?"
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if n, ok := u.names[uid]; ok {
		return n
	}
	n := strconv.Itoa(uid)
	if usr, err := user.LookupId(n); err == nil {
		n = usr.Username
	}
	u.names[uid] = n
	return n
}

// UID resolves a user name or a numeric id; ok is false for an unknown name.
func (u *Users) UID(nameOrID string) (int, bool) {
	if n, err := strconv.Atoi(nameOrID); err == nil && n >= 0 {
		return n, true
	}
	usr, err := user.Lookup(nameOrID)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(usr.Uid)
	return n, err == nil
}
