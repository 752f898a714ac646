package sessinit

import (
	"encoding/json"
	"fmt"
)

// RulesetFD is the descriptor on which init receives the Landlock ruleset
// the server built for the session, when Setup.Confined says there is one.
// The server opened every file the rules name, so the rules hold for those
// files whatever their paths lead to by the time init runs.
const RulesetFD = 4

// IDMapFD is the descriptor on which init waits, when Setup.AwaitIDMaps
// says so, for the server to map its user namespace: one byte once it has,
// the end of the pipe if it could not.
const IDMapFD = 5

// Setup is what the server asks of a session's init beyond the program to
// run. It travels as JSON in the Env variable, which init removes before
// it runs the program.
type Setup struct {
	// Cover is a directory init hides under a private tmpfs of HomeBytes,
	// in its own mount namespace: the server's state directory, so that a
	// session can reach neither the state (its database, the work files
	// of programs) by path nor leave anything behind on the host. Home, a
	// directory init then makes on that tmpfs, is the session's HOME and
	// TMPDIR: the session may write there, and whatever it writes is gone
	// with its mount namespace.
	Cover     string `json:"cover,omitempty"`
	Home      string `json:"home,omitempty"`
	HomeBytes int64  `json:"home_bytes,omitempty"`
	// Confined says a Landlock ruleset waits on RulesetFD; init enforces it
	// on itself before it starts the program, which inherits it.
	Confined bool `json:"confined,omitempty"`
	// User, when set, is who the program runs as instead of init's user.
	User *User `json:"user,omitempty"`
	// AwaitIDMaps says init starts in a user namespace that the server
	// maps only once init has started (see the repl package's namespaced
	// for why); until then init has no user and must not set anything up.
	AwaitIDMaps bool `json:"await_id_maps,omitempty"`
}

// User is a user to run the program as, resolved by the server.
type User struct {
	UID    uint32   `json:"uid"`
	GID    uint32   `json:"gid"`
	Groups []uint32 `json:"groups,omitempty"`
}

// EnvEntry is the Env=JSON entry that starts a process as a session init
// set up as s.
func (s Setup) EnvEntry() string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err) // only plain fields: cannot fail
	}
	return Env + "=" + string(b)
}

func parseSetup(v string) (Setup, error) {
	var s Setup
	if err := json.Unmarshal([]byte(v), &s); err != nil {
		return Setup{}, fmt.Errorf("reading the session's setup from %s: %w", Env, err)
	}
	return s, nil
}
