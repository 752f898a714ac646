package config

import "time"

// PathArg, in [repl] args, allows an argument that names a file or
// directory inside the roots (resolved from the session's directory, with
// its symbolic links), such as the database sqlite3 opens or the script
// python3 runs. An argument starting with "-" is never taken for one.
const PathArg = "<path>"

// ReplConf bounds the interactive sessions of the repl toolset (proc_start
// and friends). A session runs code of the agent's choosing as the server's
// user, so the programs are an allowlist and every resource is capped.
type ReplConf struct {
	// Programs are the bare names proc_start may run, looked up once at
	// start-up in the fixed safe PATH plus exec.extra_path. Shells are not
	// in the default and should be added only deliberately.
	Programs []string `toml:"programs"`
	// Args lists, per program, the arguments that may follow it in
	// proc_start's command: each argument must equal an entry, or be a path
	// inside the roots where the list has PathArg. A program without an
	// entry takes no arguments. A table in the file replaces the entries of
	// the programs it names and keeps the defaults of the others.
	Args map[string][]string `toml:"args"`
	// Network lets sessions bind and connect TCP sockets. Off, Landlock
	// denies both (kernels with Landlock ABI 4, Linux 6.7); on an older
	// kernel sessions then refuse to start unless Unconfined is set.
	Network bool `toml:"network"`
	// User runs sessions as this user, a name or a numeric uid, with its
	// groups, instead of as the server's user. It needs a server running as
	// root. Empty keeps the server's user.
	User string `toml:"user"`
	// Unconfined lets sessions start without Landlock, where the kernel has
	// none (or, with Network off, none that can deny TCP). Off, proc_start
	// refuses there. Where Landlock works it is always applied.
	Unconfined bool `toml:"unconfined"`
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
		Args:                 DefaultReplArgs(),
		MaxSessionsPerClient: 4,
		MaxSessions:          32,
		IdleTimeout:          Duration{30 * time.Minute},
		MaxLifetime:          Duration{4 * time.Hour},
		BufferBytes:          1 << 20,
		Retention:            Duration{10 * time.Minute},
	}
}

// DefaultReplArgs are the arguments the default programs may take: options
// that change how the REPL talks (quiet, unbuffered, interactive, output
// modes), never one that runs code given on the command line (python3 -c,
// node -e, sqlite3 -cmd) or loads code from elsewhere (python3 -m, node
// -r), and a path inside the roots: a script, or sqlite3's database.
func DefaultReplArgs() map[string][]string {
	return map[string][]string{
		"python3": {"-q", "-u", "-i", "-I", "-E", "-s", "-S", "-B", PathArg},
		"node":    {"-i", "--interactive", "--no-warnings", PathArg},
		"irb": {"--nomultiline", "--nosingleline", "--simple-prompt", "--noprompt", "--nocolorize", "--noautocomplete",
			"--noecho", PathArg},
		"sqlite3": {"-header", "-noheader", "-column", "-csv", "-json", "-line", "-list", "-box", "-markdown",
			"-table", "-bail", "-batch", "-interactive", "-readonly", PathArg},
	}
}
