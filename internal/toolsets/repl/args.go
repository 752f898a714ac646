package repl

import (
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// checkArgs holds what follows a program to [repl.args]: each argument
// equals an entry of the program's list, or, where the list has
// config.PathArg, names a file or directory inside the roots, taken from
// dir as the program will take it. Code given on the command line
// (python3 -c) or read from outside the roots cannot get past this; what
// the program does once running is Landlock's to confine.
func (s *Set) checkArgs(program string, args []string, roots []*fsroot.Root, dir string) error {
	allowed := s.conf.Args[program]
	paths := slices.Contains(allowed, config.PathArg)
	for _, a := range args {
		if a != config.PathArg && slices.Contains(allowed, a) {
			continue
		}
		if paths && !strings.HasPrefix(a, "-") && pathInRoots(roots, dir, a) {
			continue
		}
		return argError(program, a, allowed, paths)
	}
	return nil
}

// pathInRoots reports whether arg, relative to dir, resolves inside the
// roots. A path that does not exist yet (a database sqlite3 will create)
// is judged by its directory.
func pathInRoots(roots []*fsroot.Root, dir, arg string) bool {
	p := arg
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	p = filepath.Clean(p)
	real, err := filepath.EvalSymlinks(p)
	if errors.Is(err, fs.ErrNotExist) {
		var parent string
		if parent, err = filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
			real = filepath.Join(parent, filepath.Base(p))
		}
	}
	return err == nil && insideRoots(roots, real)
}

func argError(program, arg string, allowed []string, paths bool) error {
	var opts []string
	for _, a := range allowed {
		if a != config.PathArg {
			opts = append(opts, a)
		}
	}
	what := "no arguments"
	switch {
	case len(opts) > 0 && paths:
		what = strings.Join(opts, " ") + ", or paths inside the roots"
	case len(opts) > 0:
		what = strings.Join(opts, " ")
	case paths:
		what = "only paths inside the roots"
	}
	return tool.Errorf(tool.CommandNotAllowed, "%s may not take the argument %q; it takes %s", program, tool.Clip(arg), what).
		WithSuggestion("Start %s without it and type the code with proc_send; the operator lists what each program may take in [repl.args].", program)
}
