package repl

import (
	"maps"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// startupPrefixes and startupNames are the variables a caller may not set
// for a session: they make an interpreter, the loader, OpenSSL or a shell
// load code or configuration at start-up (PYTHONSTARTUP, NODE_OPTIONS,
// RUBYOPT, LD_PRELOAD, OPENSSL_CONF, BASH_ENV...), or move the files the
// server chose for the session (PATH, HOME, TMPDIR, sqlite3's history).
// With Landlock such code could only come from the roots or the system
// anyway; this keeps the command line and environment the agent sees the
// whole story, confined or not. Everything else passes.
var (
	startupPrefixes = []string{"LD_", "PYTHON", "NODE_", "RUBY", "GEM_", "BUNDLE_", "PERL", "BASH_", "OPENSSL_", "SQLITE_", "XDG_", "GCONV_"}
	startupNames    = []string{"PATH", "HOME", "TMPDIR", "ENV", "IRBRC", "SHELLOPTS", "BASHOPTS", "PS4", "PROMPT_COMMAND",
		"GLIBC_TUNABLES", "LOCPATH", "NLSPATH", "HOSTALIASES", "RES_OPTIONS", "TERMINFO", "TERMINFO_DIRS", "INPUTRC"}
	// harmlessPython are PYTHON* variables that only change how output is
	// written.
	harmlessPython = []string{"PYTHONUNBUFFERED", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE", "PYTHONHASHSEED"}
)

// checkEnv refuses a malformed name or a start-up variable.
func checkEnv(vars map[string]string) error {
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		if !envKey().MatchString(k) {
			return tool.Errorf(tool.InvalidArgument, "env: %q is not a valid variable name (letters, digits and _, not starting with a digit)", tool.Clip(k))
		}
		if startupVar(k) {
			return tool.Errorf(tool.InvalidArgument, "env: %s is not passed to sessions: it would load code or configuration at start-up, or move what the server set up (PATH, HOME, TMPDIR)", tool.Clip(k)).
				WithSuggestion("Leave it out: start the session, then run the code with proc_send (a file inside the roots: exec(open(\"file.py\").read()) in python3).")
		}
	}
	return nil
}

func startupVar(k string) bool {
	if slices.Contains(harmlessPython, k) {
		return false
	}
	if slices.Contains(startupNames, k) {
		return true
	}
	for _, p := range startupPrefixes {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}
