package repl

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// resolveCwd returns the directory a session starts in: cwd when, with its
// symlinks resolved, it lies inside a root; the first root when cwd is
// empty; relative paths are taken from the first root, as the file tools
// take them. Errors name the path as given, never what it resolved to.
// The check is on the resolved path rather than through os.Root because
// the kernel's chdir in the child takes a path, not a directory handle.
func resolveCwd(roots []config.Root, cwd string) (string, error) {
	if len(roots) == 0 {
		return "", tool.Errorf(tool.InvalidPath, "no roots are configured, so no session can start")
	}
	p := cwd
	if p == "" {
		p = roots[0].Path
	} else if !filepath.IsAbs(p) {
		p = filepath.Join(roots[0].Path, p)
	}
	real, err := filepath.EvalSymlinks(filepath.Clean(p))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", tool.Errorf(tool.NotFound, "cwd %q does not exist", tool.Clip(cwd))
	case err != nil:
		return "", tool.Errorf(tool.InvalidPath, "cwd %q cannot be resolved", tool.Clip(cwd))
	}
	inside := false
	for _, r := range roots {
		if rel, err := filepath.Rel(r.Path, real); err == nil && filepath.IsLocal(rel) {
			inside = true
			break
		}
	}
	if !inside {
		return "", tool.Errorf(tool.InvalidPath, "cwd %q is outside the allowed roots", tool.Clip(cwd))
	}
	if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
		return "", tool.Errorf(tool.NotADirectory, "cwd %q is not a directory", tool.Clip(cwd))
	}
	return real, nil
}
