package fsroot

import (
	"os"
	"path"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// maxReportedDirs bounds the directories a Reported holds open at once; past
// it they are all closed and reopened as paths need them. A walker reports
// a directory's files together, so this costs little, and a tree of a
// million directories cannot exhaust the descriptors.
const maxReportedDirs = 256

// Reported checks the paths a walker outside hostmcp (ripgrep) reported
// below a fence's start, so that only what the native walk could have
// reached comes through: each directory is opened once, from its already
// opened parent, by a single name that is never followed if it is a
// symbolic link, and kept only when the fence admits it (on the start's
// mount, or crossing allowed); a file is then looked at, or opened, from
// its directory the same way. A path through a link, through a directory
// swapped for a link during the walk, or onto another mount is refused,
// and a path that is not clean and relative (a ".." component) is refused
// before any look. The check costs an openat and a statx per directory and
// one call per file, where resolving each path from the root again cost a
// call per component. Its methods may be called from several goroutines.
type Reported struct {
	fence *Fence
	start int // the fence's start directory, which the fence owns
	mu    sync.Mutex
	dirs  map[string]int // by path relative to the start: an open descriptor, or -1 when refused
	open  int            // descriptors in dirs, the start not counted
}

// Reported begins checking paths reported below the fence's start. Close it
// before the fence.
func (f *Fence) Reported() *Reported {
	return &Reported{fence: f, start: int(f.start.Fd()), dirs: map[string]int{".": int(f.start.Fd())}}
}

// Close releases the directories it holds. Their descriptors are closed
// on a goroutine of its own: a search that listed names from hundreds of
// directories spent half a millisecond closing them between rg's end and
// its answer. They are path descriptors, which hold no file open for
// reading or writing; a mount below them stays busy until they are closed,
// a few microseconds each later.
func (r *Reported) Close() {
	r.mu.Lock()
	fds := r.takeDirs()
	r.mu.Unlock()
	if len(fds) > 0 {
		go closeAll(fds)
	}
}

// Regular reports whether rel is, now, a regular file (not a link) in a
// directory the fence admits.
func (r *Reported) Regular(rel string) bool {
	dir, base, ok := splitReported(rel)
	if !ok {
		return false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fd := r.dir(dir)
	if fd < 0 {
		return false
	}
	var st unix.Stat_t
	err := unix.Fstatat(fd, base, &st, unix.AT_SYMLINK_NOFOLLOW)
	return err == nil && st.Mode&unix.S_IFMT == unix.S_IFREG
}

// Open opens rel for reading when it is a regular file (not a link, never
// a FIFO or device that could block or act on being opened) in a
// directory the fence admits, and on the fence's mount itself unless
// crossing is allowed: a file bind-mounted from elsewhere is refused too.
func (r *Reported) Open(rel string) (*os.File, error) {
	fd, _, err := r.OpenFD(rel)
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), rel), nil
}

// dir returns the descriptor of the directory rel (clean, relative to the
// start), opening it and its parents as needed, or -1 when it cannot be
// reached or the fence refuses it. r.mu is held.
func (r *Reported) dir(rel string) int {
	if fd, ok := r.dirs[rel]; ok {
		return fd
	}
	if r.open >= maxReportedDirs {
		r.forget()
	}
	fd := -1
	if parent := r.dir(path.Dir(rel)); parent >= 0 {
		fd = r.openDir(parent, path.Base(rel))
	}
	r.dirs[rel] = fd
	if fd >= 0 {
		r.open++
	}
	return fd
}

// openDir opens the directory name in parent, never through a link, and
// keeps it only when the fence admits it. The descriptor is O_PATH: it is
// only ever a directory to look up names in (fstatat, openat) and to
// identify (statx), all of which O_PATH allows, and opening and closing it
// costs the kernel less than a full open, for each of the hundreds of
// directories a search reports from.
func (r *Reported) openDir(parent int, name string) int {
	fd, err := unix.Openat(parent, name, unix.O_PATH|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1
	}
	if id, kind, err := statxKind(fd, "", unix.AT_EMPTY_PATH); err != nil || kind != unix.S_IFDIR || !r.fence.admitsID(id) {
		unix.Close(fd)
		return -1
	}
	return fd
}

// forget closes every directory but the start. r.mu is held.
func (r *Reported) forget() {
	closeAll(r.takeDirs())
}

// takeDirs empties r of every directory but the start and returns their
// descriptors, for the caller to close. r.mu is held.
func (r *Reported) takeDirs() []int {
	var fds []int
	for rel, fd := range r.dirs {
		if rel != "." && fd >= 0 {
			fds = append(fds, fd)
		}
	}
	clear(r.dirs)
	r.dirs["."] = r.start
	r.open = 0
	return fds
}

func closeAll(fds []int) {
	for _, fd := range fds {
		unix.Close(fd)
	}
}

// splitReported splits a reported path into its directory and name,
// refusing one that is empty, absolute, not clean or climbing out.
func splitReported(rel string) (dir, base string, ok bool) {
	if !cleanBelow(rel) {
		return "", "", false
	}
	i := strings.LastIndexByte(rel, '/')
	if i < 0 {
		return ".", rel, true
	}
	return rel[:i], rel[i+1:], true
}

// cleanBelow reports whether rel is a clean relative path below its start:
// not empty, and no component empty, "." or "..". It is what path.Clean
// said of it, in one pass over the bytes, for each of the thousands of
// paths a search reports.
func cleanBelow(rel string) bool {
	if rel == "" {
		return false
	}
	for rel != "" {
		elem := rel
		if i := strings.IndexByte(rel, '/'); i >= 0 {
			elem, rel = rel[:i], rel[i+1:]
			if rel == "" {
				return false // a trailing slash
			}
		} else {
			rel = ""
		}
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
	}
	return true
}
