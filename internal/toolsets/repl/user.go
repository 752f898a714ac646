package repl

import (
	"fmt"
	"os"
	"strconv"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/toolsets/repl/sessinit"
)

// sessionUser resolves [repl] user, once at start-up, to the ids the
// session init switches the program to. Switching needs a root server: one
// that is not runs sessions in a user namespace where only its own user
// exists.
func sessionUser(name string) (*sessinit.User, error) {
	if name == "" {
		return nil, nil
	}
	if os.Geteuid() != 0 {
		return nil, fmt.Errorf("[repl] user %q needs a server running as root; this one runs as uid %d", name, os.Geteuid())
	}
	u, err := config.LookupUser(name)
	if err != nil {
		return nil, fmt.Errorf("[repl] user %q: %w", name, err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	gids, err3 := u.GroupIds()
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, fmt.Errorf("[repl] user %q: reading its ids: %v %v %v", name, err1, err2, err3)
	}
	out := &sessinit.User{UID: uint32(uid), GID: uint32(gid)}
	for _, g := range gids {
		if n, err := strconv.ParseUint(g, 10, 32); err == nil {
			out.Groups = append(out.Groups, uint32(n))
		}
	}
	return out, nil
}
