package repl

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Bounds of a command line; far beyond any REPL's needs, they only keep a
// runaway argument list from reaching exec.
const (
	maxArgs     = 256
	maxArgBytes = 64 << 10
)

// program checks argv[0] against the allowlist and returns its name in
// repl.programs and the absolute path that name resolved to at start-up.
// argv[0] is a bare name from repl.programs, or the very path that name
// resolved to; nothing else runs. What may follow is checkArgs' to judge.
func (s *Set) program(argv []string) (name, path string, err error) {
	if len(argv) == 0 || argv[0] == "" {
		return "", "", tool.Errorf(tool.InvalidArgument, "command is empty; give the program and its arguments, like [\"python3\"]")
	}
	size := 0
	for _, a := range argv {
		size += len(a)
		if strings.ContainsRune(a, 0) {
			return "", "", tool.Errorf(tool.InvalidArgument, "command: an argument contains a NUL byte")
		}
	}
	if len(argv) > maxArgs || size > maxArgBytes {
		return "", "", tool.Errorf(tool.InvalidArgument, "command: %d arguments of %d bytes; at most %d arguments and %d bytes", len(argv), size, maxArgs, maxArgBytes)
	}
	given := argv[0]
	for _, p := range s.conf.Programs {
		if path, ok := s.exec.Path(p); ok && (given == p || given == path) {
			return p, path, nil
		}
		if given == p {
			return "", "", tool.Errorf(tool.ToolNotFound, "%s is allowlisted but not installed on this host", tool.Clip(given)).
				WithSuggestion("Use one of the installed programs: %s.", strings.Join(s.available(), ", "))
		}
	}
	avail := s.available()
	msg := fmt.Sprintf("%q is not an allowlisted program; allowed here: %s", tool.Clip(given), strings.Join(avail, ", "))
	if len(avail) == 0 {
		msg = fmt.Sprintf("%q is not an allowlisted program, and none of repl.programs is installed", tool.Clip(given))
	}
	return "", "", tool.Errorf(tool.CommandNotAllowed, "%s", msg).
		WithSuggestion("Start one of the allowed programs; the operator sets the list in [repl] programs. Shells are not allowed unless configured.")
}

// envKey is a portable variable name.
var envKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`) })

// environ builds a session's environment: execx's scrubbed base (fixed
// PATH, C.UTF-8 locale), a terminal type, its private HOME and TMPDIR
// (sqlite3 looks for its history in the user database's home, not HOME,
// unless told), then the caller's variables.
func (s *Set) environ(vars map[string]string, home string) ([]string, error) {
	extra := []string{"TERM=xterm", "HOME=" + home, "TMPDIR=" + home, "SQLITE_HISTORY=" + home + "/.sqlite_history"}
	if err := checkEnv(vars); err != nil {
		return nil, err
	}
	for _, k := range slices.Sorted(maps.Keys(vars)) {
		extra = append(extra, k+"="+vars[k])
	}
	env, err := s.exec.Env(extra)
	if err != nil {
		return nil, tool.Errorf(tool.InvalidArgument, "env: %s", tool.Clip(err.Error())).
			WithSuggestion("Leave PATH and LD_* out of env: PATH is fixed and the loader's variables are never passed.")
	}
	return env, nil
}
