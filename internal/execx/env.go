package execx

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// safeDirs is where programs are looked up, in order. It is fixed rather than
// taken from $PATH so that whoever started the server (or a writable
// directory early in their PATH) cannot substitute a binary.
const safeDirs = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

// searchDirs returns the fixed directories followed by the operator's extra
// ones. Extra directories must be absolute: a relative one would make the
// lookup depend on the server's working directory.
func searchDirs(extra []string) ([]string, error) {
	dirs := strings.Split(safeDirs, ":")
	seen := make(map[string]bool, len(dirs)+len(extra))
	for _, d := range dirs {
		seen[d] = true
	}
	for _, d := range extra {
		if !filepath.IsAbs(d) {
			return nil, fmt.Errorf("extra path %q: not absolute", d)
		}
		d = filepath.Clean(d)
		if !seen[d] {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	return dirs, nil
}

// validName reports whether name is a bare program name. Anything with a
// slash would bypass the directory search.
func validName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\x00")
}

// resolve finds name in dirs, the first regular file with an execute bit
// winning, as a shell would. Symlinks are followed for the check but the
// path is returned as found so argv[0]-dispatching tools keep working.
func resolve(dirs []string, name string) (string, bool) {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		fi, err := os.Stat(p)
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, true
		}
	}
	return "", false
}

// baseEnv is the whole environment a child starts from: nothing of the
// server's own environment leaks (tokens, proxies, LD_* tricks). LC_ALL is
// C.UTF-8 so messages and number formats are the stable C ones that callers
// parse, while non-ASCII file names and journal text pass through unmangled.
// HOME and TMPDIR, when given, are the server's private directories: a
// HOME of "/" once let perf, run as root, fill /.debug with its build-id
// cache.
func baseEnv(dirs []string, home, tmp string) []string {
	env := []string{
		"PATH=" + strings.Join(dirs, ":"),
		"LANG=C.UTF-8",
		"LC_ALL=C.UTF-8",
	}
	if home != "" {
		env = append(env, "HOME="+home)
	}
	if tmp != "" {
		env = append(env, "TMPDIR="+tmp)
	}
	return env
}

// childEnv appends a command's extra variables to the base. PATH and the
// dynamic loader's LD_* variables are refused: the first would undo the
// fixed lookup for the child's own children, the second would let a caller
// inject code into an allowlisted binary.
func childEnv(base, extra []string) ([]string, error) {
	env := make([]string, 0, len(base)+len(extra))
	env = append(env, base...)
	for _, kv := range extra {
		key, _, ok := strings.Cut(kv, "=")
		switch {
		case !ok || key == "" || strings.ContainsRune(kv, 0):
			return nil, fmt.Errorf("environment entry %q: want KEY=VALUE", kv)
		case key == "PATH" || strings.HasPrefix(key, "LD_"):
			return nil, fmt.Errorf("environment entry %q: %s may not be set", kv, key)
		}
		env = append(env, kv)
	}
	return env, nil
}
