package config

import "time"

// ReplConf bounds the interactive sessions of the repl toolset (proc_start
// and friends). A session runs code of the agent's choosing as the server's
// user, so the programs are an allowlist and every resource is capped.
type ReplConf struct {
	// Programs are the bare names proc_start may run, looked up once at
	// start-up in the fixed safe PATH plus exec.extra_path. Shells are not
	// in the default and should be added only deliberately.
	Programs []string `toml:"programs"`
	// MaxSessionsPerClient caps the live sessions of one MCP client session.
	// Over stateless HTTP every request is a new client session, so there
	// only MaxSessions applies.
	MaxSessionsPerClient int `toml:"max_sessions_per_client"`
	// MaxSessions caps the live sessions of the whole server.
	MaxSessions int `toml:"max_sessions"`
	// IdleTimeout stops a session nobody has sent to or read from for this
	// long.
	IdleTimeout Duration `toml:"idle_timeout"`
	// MaxLifetime stops a session this long after it started, busy or not.
	MaxLifetime Duration `toml:"max_lifetime"`
	// BufferBytes is the output each session keeps; older output is
	// dropped and proc_read reports how much.
	BufferBytes int `toml:"buffer_bytes"`
	// Retention is how long a finished session keeps its exit code and last
	// output for proc_read before it is forgotten.
	Retention Duration `toml:"retention"`
}

// DefaultRepl is spec 002 section 3.1's limits (4 per session, 32 in
// total) with the REPLs an agent commonly needs and no shell.
func DefaultRepl() ReplConf {
	return ReplConf{
		Programs:             []string{"python3", "node", "irb", "sqlite3"},
		MaxSessionsPerClient: 4,
		MaxSessions:          32,
		IdleTimeout:          Duration{30 * time.Minute},
		MaxLifetime:          Duration{4 * time.Hour},
		BufferBytes:          1 << 20,
		Retention:            Duration{10 * time.Minute},
	}
}
