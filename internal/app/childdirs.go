package app

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"time"
)

// childDirs are the state directory's two directories for the programs
// hostmcp runs (perf, bpftrace, git...): Home is their HOME and Tmp their
// TMPDIR and the toolsets' work space (perf's data files). With them inside
// the state directory, what those programs write lands there and nowhere
// else: not in "/" (perf, as root with HOME=/, used to fill /.debug with
// copies of every binary it sampled and of /proc/kallsyms), not in the
// server user's home, not in /tmp.
type childDirs struct {
	Home, Tmp string
}

// staleWork is how old an entry of Tmp must be before sweepTmp removes it.
// No program hostmcp runs lives longer than a tool's maximum timeout
// (minutes), so older entries are what a killed server left behind; an
// hour leaves room for a server sharing the state directory.
const staleWork = time.Hour

// makeChildDirs creates them, or checks that they are what this server
// made: directories (not symlinks to elsewhere) owned by its user, and
// private (0700), as the state directory is.
func makeChildDirs(stateDir string) (childDirs, error) {
	d := childDirs{Home: filepath.Join(stateDir, "home"), Tmp: filepath.Join(stateDir, "tmp")}
	for _, dir := range []string{d.Home, d.Tmp} {
		if err := privateDir(dir); err != nil {
			return childDirs{}, err
		}
	}
	return d, nil
}

// privateDir makes dir a directory only its owner, this server's user, can
// use.
func privateDir(dir string) error {
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("creating %s: %w", dir, err)
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("checking %s: %w", dir, err)
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s: not a directory (%s); remove it and start again", dir, fi.Mode().Type())
	}
	if st, ok := fi.Sys().(*syscall.Stat_t); !ok || int(st.Uid) != os.Geteuid() {
		return fmt.Errorf("%s: not owned by this server's user (uid %d)", dir, os.Geteuid())
	}
	if fi.Mode().Perm() != 0o700 {
		if err := os.Chmod(dir, 0o700); err != nil {
			return fmt.Errorf("restricting %s to its owner: %w", dir, err)
		}
	}
	return nil
}

// sweepTmp removes what is older than staleWork from Tmp: the work
// directories of a server that was killed before it could remove them,
// which may hold hundreds of megabytes of perf data.
func (d childDirs) sweepTmp(now time.Time) error {
	entries, err := os.ReadDir(d.Tmp)
	if err != nil {
		return fmt.Errorf("sweeping %s: %w", d.Tmp, err)
	}
	var errs []error
	for _, e := range entries {
		fi, err := e.Info()
		if err != nil || now.Sub(fi.ModTime()) < staleWork {
			continue // gone meanwhile, or maybe still in use
		}
		if err := os.RemoveAll(filepath.Join(d.Tmp, e.Name())); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
