package fsroot

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// WriteOptions say how Write treats the existing file.
type WriteOptions struct {
	// Append adds data at the end instead of replacing the content.
	Append bool
	// ExpectedSHA256, when set, must equal the hex SHA-256 of the current
	// content or nothing is written (SHA_MISMATCH). A missing file passes
	// the check: there is nothing to have changed (spec 003 section 4.2.4).
	ExpectedSHA256 string
	// CreateParents creates missing parent directories (mode 0755).
	CreateParents bool
	// AllowHardlink lets a write go ahead on a file with other names. The
	// write then replaces this name only, by copy and rename, and the other
	// names keep the old content: nothing outside this name is changed.
	AllowHardlink bool
	// Mode is the permission of a new file; 0644 when zero.
	Mode fs.FileMode

	// fault, in tests, is called after each chunk written to the new
	// content; an error it returns aborts the write there.
	fault func(written int64) error
}

// WriteResult is what a write did.
type WriteResult struct {
	BytesWritten int64
	NewSHA256    string
	Created      bool
	Mode         fs.FileMode
}

// Write replaces or appends to a regular file. A replace is atomic: the new
// content goes to an unnamed temporary file in the same directory
// (O_TMPFILE; a named one where the filesystem lacks it), is synced, given
// the old file's mode and owner, linked and renamed over the target, and the
// directory is synced, so the target is always either the old or the new
// content. An append is a replace too (old content, then data): it costs a
// copy of the file but can never leave half an append behind.
func (l Loc) Write(data []byte, o WriteOptions) (WriteResult, error) {
	return l.WriteFrom(bytes.NewReader(data), o)
}

// WriteFrom is Write with the new content streamed from r, so a copy of a
// large file never sits in memory.
func (l Loc) WriteFrom(data io.Reader, o WriteOptions) (WriteResult, error) {
	if err := l.checkWritable(); err != nil {
		return WriteResult{}, err
	}
	if o.CreateParents {
		if _, err := l.dirLoc().mkdirAll(); err != nil {
			return WriteResult{}, err
		}
	}
	dir, base, err := l.parent()
	if err != nil {
		return WriteResult{}, err
	}
	defer dir.Close()
	w := &writer{l: l, dir: dir, dfd: int(dir.Fd()), base: base, o: o}
	return w.run(data)
}

// checkWritable refuses a name no file can be written by.
func (l Loc) checkWritable() error {
	if l.IsRoot() {
		return tool.Errorf(tool.IsDirectory, "%q is a root directory", tool.Clip(l.Given))
	}
	if l.dirOnly {
		return tool.Errorf(tool.InvalidPath, "%q ends in \"/\": it names a directory, and no file is written by that name", tool.Clip(l.Given)).
			WithSuggestion("Leave out the trailing slash to write a file.")
	}
	return nil
}

type writer struct {
	l    Loc
	dir  *os.File
	dfd  int
	base string
	o    WriteOptions
}

func (w *writer) run(data io.Reader) (WriteResult, error) {
	old, st, mode, err := w.check()
	if err != nil {
		return WriteResult{}, err
	}
	if old != nil {
		defer old.Close()
	}
	return w.replace(data, old, &st, mode)
}

// check makes every check of a write before it writes: the target, if it
// exists, is a regular file of one name (or AllowHardlink), opened, and
// of the expected content. It returns the open target (nil when there is
// none), its stat and the mode the new content gets.
func (w *writer) check() (*os.File, unix.Stat_t, fs.FileMode, error) {
	var st unix.Stat_t
	exists := true
	if err := unix.Fstatat(w.dfd, w.base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		if !errors.Is(err, unix.ENOENT) {
			return nil, st, 0, pathError("writing", w.l.Given, err)
		}
		exists = false
	}
	mode := w.o.Mode
	if mode == 0 {
		mode = 0o644
	}
	if !exists {
		return nil, st, mode, nil
	}
	m := fileMode(st.Mode)
	if !m.IsRegular() {
		if m&fs.ModeSymlink != 0 {
			return nil, st, 0, tool.Errorf(tool.NotAFile, "%q is a symbolic link; write the file it points to instead", w.l.Given)
		}
		return nil, st, 0, notRegular(w.l.Given, m)
	}
	if st.Nlink > 1 && !w.o.AllowHardlink {
		return nil, st, 0, tool.Errorf(tool.NotAFile, "%q has %d hard links: writing it would change the file under its other names too", w.l.Given, st.Nlink).
			WithSuggestion("Pass allow_hardlink: true to replace only this name (the other names keep the old content).")
	}
	mode = m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
	fd, err := unix.Openat(w.dfd, w.base, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC|unix.O_NOCTTY, 0)
	if err != nil {
		return nil, st, 0, pathError("writing", w.l.Given, err)
	}
	old := os.NewFile(uintptr(fd), w.base)
	var ost unix.Stat_t
	if err := unix.Fstat(fd, &ost); err != nil || ost.Ino != st.Ino || ost.Dev != st.Dev {
		old.Close()
		return nil, st, 0, tool.Errorf(tool.WriteFailed, "%q changed while it was being written; nothing was written", w.l.Given)
	}
	if w.o.ExpectedSHA256 != "" {
		sum, err := hashFile(old)
		if err != nil {
			old.Close()
			return nil, st, 0, pathError("reading", w.l.Given, err)
		}
		if sum != w.o.ExpectedSHA256 {
			old.Close()
			return nil, st, 0, tool.Errorf(tool.ShaMismatch, "%q has sha256 %s, not the expected %s; nothing was written", w.l.Given, sum, w.o.ExpectedSHA256)
		}
	}
	return old, st, mode, nil
}

// WritePlan is what Write finds before it writes.
type WritePlan struct {
	// Old is the file the write replaces or appends to; nil for a new one.
	Old fs.FileInfo
	// Mode is the permission the written file has.
	Mode fs.FileMode
	// Parents are the directories CreateParents would make, relative to
	// the root, shallowest first.
	Parents []string
}

// PlanWrite makes every check Write makes before it writes and says what
// it found; it changes nothing.
func (l Loc) PlanWrite(o WriteOptions) (WritePlan, error) {
	if err := l.checkWritable(); err != nil {
		return WritePlan{}, err
	}
	if o.CreateParents {
		d, missing, err := l.dirLoc().nearestDir()
		if err != nil {
			return WritePlan{}, err
		}
		defer d.Close()
		if err := l.writableIn(d); err != nil {
			return WritePlan{}, err
		}
		if len(missing) > 0 {
			p := WritePlan{Mode: o.Mode}
			if p.Mode == 0 {
				p.Mode = 0o644
			}
			p.Parents = l.dirLoc().missingPaths(missing)
			return p, nil
		}
	}
	dir, base, err := l.parent()
	if err != nil {
		return WritePlan{}, err
	}
	defer dir.Close()
	w := &writer{l: l, dir: dir, dfd: int(dir.Fd()), base: base, o: o}
	old, _, mode, err := w.check()
	if err != nil {
		return WritePlan{}, err
	}
	p := WritePlan{Mode: mode}
	if old != nil {
		defer old.Close()
		if p.Old, err = old.Stat(); err != nil {
			return WritePlan{}, pathError("inspecting", l.Given, err)
		}
	}
	return p, nil
}

// replace writes the new content (old content first when appending) to a
// temporary file and renames it over the target.
func (w *writer) replace(data io.Reader, old *os.File, st *unix.Stat_t, mode fs.FileMode) (WriteResult, error) {
	tmp, named, err := w.tempFile()
	if err != nil {
		return WriteResult{}, pathError("writing", w.l.Given, err)
	}
	committed := false
	defer func() {
		tmp.Close()
		if named != "" && !committed {
			unix.Unlinkat(w.dfd, named, 0)
		}
	}()
	h := sha256.New()
	cw := &countWriter{w: io.MultiWriter(tmp, h), fault: w.o.fault}
	if w.o.Append && old != nil {
		if _, err := old.Seek(0, io.SeekStart); err != nil {
			return WriteResult{}, pathError("reading", w.l.Given, err)
		}
		if _, err := io.Copy(cw, old); err != nil {
			return WriteResult{}, w.failed(err)
		}
	}
	before := cw.n
	if _, err := io.CopyBuffer(cw, data, make([]byte, chunk)); err != nil {
		return WriteResult{}, w.failed(err)
	}
	if err := tmp.Chmod(mode); err != nil {
		return WriteResult{}, w.failed(err)
	}
	if old != nil && os.Geteuid() == 0 {
		_ = tmp.Chown(int(st.Uid), int(st.Gid)) // keep the owner; best effort
		_ = tmp.Chmod(mode)                     // chown clears setuid bits
	}
	if err := tmp.Sync(); err != nil {
		return WriteResult{}, w.failed(err)
	}
	if named == "" {
		if named, err = w.link(tmp); err != nil {
			return WriteResult{}, w.failed(err)
		}
	}
	if err := unix.Renameat(w.dfd, named, w.dfd, w.base); err != nil {
		return WriteResult{}, w.failed(err)
	}
	committed = true
	if err := w.dir.Sync(); err != nil {
		return WriteResult{}, pathError("syncing the directory of", w.l.Given, err)
	}
	return WriteResult{BytesWritten: cw.n - before, NewSHA256: hex.EncodeToString(h.Sum(nil)), Created: old == nil, Mode: mode}, nil
}

func (w *writer) failed(err error) error {
	e := pathError("writing", w.l.Given, err)
	if e.Code == tool.Internal || e.Code == tool.ExecutionFailed {
		e.Code = tool.WriteFailed
	}
	e.Message += "; the target was left unchanged"
	return e
}

// tempFile opens an unnamed file in the directory, or a named one (returned
// as named) where O_TMPFILE is not supported. Either is locked (flock) for
// as long as this writer lives, which is how a later writer tells a live
// temporary name from one a killed writer left behind. (Without O_TMPFILE a
// writer killed mid-write leaves its randomly named file; none is reclaimed.)
func (w *writer) tempFile() (*os.File, string, error) {
	fd, err := unix.Openat(w.dfd, ".", unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	if err == nil {
		return w.locked(os.NewFile(uintptr(fd), "tmpfile"), "")
	}
	if !noTmpfile(err) {
		return nil, "", err
	}
	// A random name: under the target's own temporary name the file would
	// be visible, unlocked, between its creation and the flock, where a
	// reclaim could take it for a dead writer's.
	for range 10 {
		name := tempName(w.base, true)
		fd, err := unix.Openat(w.dfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
		if errors.Is(err, unix.EEXIST) {
			continue
		}
		if err != nil {
			return nil, "", err
		}
		return w.locked(os.NewFile(uintptr(fd), name), name)
	}
	return nil, "", fmt.Errorf("no free temporary name: %w", syscall.EEXIST)
}

func (w *writer) locked(f *os.File, name string) (*os.File, string, error) {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX); err != nil {
		f.Close()
		if name != "" {
			unix.Unlinkat(w.dfd, name, 0)
		}
		return nil, "", err
	}
	return f, name, nil
}

// link gives the unnamed temporary file a name so it can be renamed over
// the target (O_TMPFILE files cannot be renamed directly).
func (w *writer) link(tmp *os.File) (string, error) {
	return w.claimName(func(name string) error {
		return unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", tmp.Fd()), w.dfd, name, unix.AT_SYMLINK_FOLLOW)
	})
}

// claimName creates a temporary name with create, which fails with EEXIST
// when the name is taken. The first choice is the target's own temporary
// name: a writer killed between naming its (already locked) file and the
// rename leaves that name behind, unlocked, and the next write of the same
// target removes it here, with no directory scan. A name a live writer
// holds is left alone and a random one used instead.
func (w *writer) claimName(create func(name string) error) (string, error) {
	name := tempName(w.base, false)
	for try := range 10 {
		err := create(name)
		if !errors.Is(err, unix.EEXIST) {
			return name, err
		}
		if try > 0 || !w.reclaim(name) {
			name = tempName(w.base, true)
		}
	}
	return "", fmt.Errorf("no free temporary name: %w", syscall.EEXIST)
}

// reclaim removes the temporary file name if no live writer holds it,
// reporting whether it did.
func (w *writer) reclaim(name string) bool {
	fd, err := unix.Openat(w.dfd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if err != nil {
		return false
	}
	defer unix.Close(fd)
	var held, now unix.Stat_t
	if unix.Fstat(fd, &held) != nil || held.Mode&unix.S_IFMT != unix.S_IFREG ||
		unix.Flock(fd, unix.LOCK_EX|unix.LOCK_NB) != nil {
		return false
	}
	// Still the same file under that name (not a new writer's)?
	if unix.Fstatat(w.dfd, name, &now, unix.AT_SYMLINK_NOFOLLOW) != nil || now.Ino != held.Ino || now.Dev != held.Dev {
		return false
	}
	return unix.Unlinkat(w.dfd, name, 0) == nil
}

// TempPrefix starts the name of every temporary file a write creates, so
// leftovers are recognisable.
const TempPrefix = ".hostmcp-tmp-"

// tempName is the target's temporary name, with a random suffix when
// random (another writer holds the plain one).
func tempName(base string, random bool) string {
	if len(base) > 100 {
		base = base[:100]
	}
	if !random {
		return TempPrefix + base
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	return TempPrefix + base + "-" + hex.EncodeToString(b[:])
}

const chunk = 256 << 10

type countWriter struct {
	w     io.Writer
	n     int64
	fault func(int64) error
}

// Write passes p on in chunks, so a fault hook sees the write part-way.
func (c *countWriter) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) {
		n, err := c.w.Write(p[done:min(len(p), done+chunk)])
		done += n
		c.n += int64(n)
		if err == nil && c.fault != nil {
			err = c.fault(c.n)
		}
		if err != nil {
			return done, err
		}
	}
	return done, nil
}

func hashFile(f *os.File) (string, error) {
	var h hash.Hash = sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fileMode converts a stat mode to an fs.FileMode.
func fileMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	if m&unix.S_ISUID != 0 {
		perm |= fs.ModeSetuid
	}
	if m&unix.S_ISGID != 0 {
		perm |= fs.ModeSetgid
	}
	if m&unix.S_ISVTX != 0 {
		perm |= fs.ModeSticky
	}
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
	case unix.S_IFDIR:
		perm |= fs.ModeDir
	case unix.S_IFLNK:
		perm |= fs.ModeSymlink
	case unix.S_IFIFO:
		perm |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		perm |= fs.ModeSocket
	case unix.S_IFCHR:
		perm |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		perm |= fs.ModeDevice
	}
	return perm
}
