package fsroot

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// MountID says where a file was reached: its file system (st_dev) and,
// where statx reports it (Linux 5.8+), the mount it was reached through. A
// bind mount of a directory of the same file system has its parent's
// device and a mount id of its own, so only the mount id tells it apart.
type MountID struct {
	dev    uint64
	mnt    uint64
	hasMnt bool
	dir    bool
}

// holds reports whether o lies on m's mount: the same mount id where both
// have one, and for a directory the same device too, which is what du -x,
// rg --one-file-system and rm --one-file-system compare (a btrfs subvolume
// counts as another file system for all of them), and all there is to
// compare on kernels without mount ids. A file's device is not compared:
// overlayfs reports, for a file, the device of the layer it comes from.
func (m MountID) holds(o MountID) bool {
	if m.hasMnt && o.hasMnt && m.mnt != o.mnt {
		return false
	}
	return !o.dir || o.dev == m.dev
}

// statxMount identifies name in the directory dirfd without following a
// link or triggering an automount; an empty name with unix.AT_EMPTY_PATH
// identifies dirfd itself. STATX_MNT_ID_UNIQUE (6.8+) is asked for first:
// such ids are never reused. Older kernels ignore the bit and answer with
// the plain mount id (5.8+), or with none.
func statxMount(dirfd int, name string, flags int) (MountID, error) {
	id, _, err := statxKind(dirfd, name, flags)
	return id, err
}

// statxKind is statxMount that also returns the file's type bits
// (unix.S_IFMT of its mode), which the same call gives.
func statxKind(dirfd int, name string, flags int) (MountID, uint32, error) {
	id, kind, _, err := statxFile(dirfd, name, flags)
	return id, kind, err
}

// statxFile is statxKind that also returns the file's size in bytes (-1
// when the kernel did not give it), which the same call gives.
func statxFile(dirfd int, name string, flags int) (MountID, uint32, int64, error) {
	var stx unix.Statx_t
	err := unix.Statx(dirfd, name, flags|unix.AT_SYMLINK_NOFOLLOW|unix.AT_NO_AUTOMOUNT|unix.AT_STATX_DONT_SYNC,
		unix.STATX_TYPE|unix.STATX_SIZE|unix.STATX_MNT_ID|unix.STATX_MNT_ID_UNIQUE, &stx)
	if errors.Is(err, unix.ENOSYS) { // before Linux 4.11
		var st unix.Stat_t
		if err := unix.Fstatat(dirfd, name, &st, flags|unix.AT_SYMLINK_NOFOLLOW); err != nil {
			return MountID{}, 0, -1, err
		}
		kind := st.Mode & unix.S_IFMT
		return MountID{dev: st.Dev, dir: kind == unix.S_IFDIR}, kind, st.Size, nil
	}
	if err != nil {
		return MountID{}, 0, -1, err
	}
	kind := uint32(stx.Mode) & unix.S_IFMT
	size := int64(-1)
	if stx.Mask&unix.STATX_SIZE != 0 {
		size = int64(stx.Size)
	}
	return MountID{
		dev:    unix.Mkdev(stx.Dev_major, stx.Dev_minor),
		mnt:    stx.Mnt_id,
		hasMnt: stx.Mask&(unix.STATX_MNT_ID|unix.STATX_MNT_ID_UNIQUE) != 0,
		dir:    kind == unix.S_IFDIR,
	}, kind, size, nil
}

// mountOf identifies an open file: the very object read, so a path swapped
// or mounted over since it was opened cannot fool the answer.
func mountOf(f *os.File) (MountID, error) {
	return statxMount(int(f.Fd()), "", unix.AT_EMPTY_PATH)
}

// IsMountPoint reports whether something is mounted on l: its mount
// differs from its directory's. A root is never reported (its directory
// lies outside the roots).
func (l Loc) IsMountPoint() (bool, error) {
	if l.IsRoot() {
		return false, nil
	}
	dirRel, base := path.Split(l.Rel)
	// Opened for looking only: parent, which serves changes, may also
	// refuse a directory that cannot be changed.
	parent, err := l.Root.OS().OpenFile(path.Clean("./"+dirRel), os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return false, pathError("inspecting", l.Given, err)
	}
	defer parent.Close()
	pid, err := mountOf(parent)
	if err != nil {
		return false, pathError("inspecting", l.Given, err)
	}
	id, err := statxMount(int(parent.Fd()), base, 0)
	if err != nil {
		return false, pathError("inspecting", l.Given, err)
	}
	return !pid.holds(id), nil
}

// shownMounts bounds the mount points a warning names.
const shownMounts = 20

// Fence keeps a walk on the file system and mount of the directory it
// starts from, as du -x, rg --one-file-system and rm --one-file-system do,
// unless crossing was asked for. Each directory is checked as it is opened,
// on the descriptor that is then read, so a mount that appears during the
// walk is not entered either.
type Fence struct {
	root *os.Root
	base string // the start, relative to root
	// start is held open while the walk runs: it pins the start's mount,
	// whose id the kernel cannot then give to another.
	start    *os.File
	id       MountID
	cross    bool
	skipped  []string
	nSkipped int
}

// Fence opens the directory l for a walk that stays on its mount, or
// crosses into others when cross is set. Close it when the walk is done.
func (l Loc) Fence(cross bool) (*Fence, error) {
	d, err := l.OpenDir()
	if err != nil {
		return nil, err
	}
	id, err := mountOf(d)
	if err != nil {
		d.Close()
		return nil, pathError("inspecting", l.Given, err)
	}
	return &Fence{root: l.Root.OS(), base: l.Rel, start: d, id: id, cross: cross}, nil
}

// Close releases the start directory.
func (f *Fence) Close() error { return f.start.Close() }

// Stat describes the start directory.
func (f *Fence) Stat() (fs.FileInfo, error) { return f.start.Stat() }

// OpenDir opens the directory rel (relative to the start; "" is the start)
// through the root. other says that it lies on another mount: it is then
// returned only when crossing is allowed; otherwise it is recorded as
// skipped, and d is nil.
func (f *Fence) OpenDir(rel string) (d *os.File, other bool, err error) {
	full := f.base
	if rel != "" {
		full = path.Join(f.base, rel)
	}
	d, err = f.root.OpenFile(full, os.O_RDONLY|syscall.O_DIRECTORY, 0)
	if err != nil {
		return nil, false, err
	}
	id, err := mountOf(d)
	if err != nil {
		d.Close()
		return nil, false, err
	}
	if f.id.holds(id) {
		return d, false, nil
	}
	if f.cross {
		return d, true, nil
	}
	d.Close()
	f.Skip(rel)
	return nil, true, nil
}

// Admits reports whether a walk may read an open file: it lies on the
// start's mount, or crossing is allowed.
func (f *Fence) Admits(file *os.File) bool {
	if f.cross {
		return true
	}
	id, err := mountOf(file)
	return err == nil && f.admitsID(id)
}

// admitsID reports whether a walk may enter what id identifies.
func (f *Fence) admitsID(id MountID) bool { return f.cross || f.id.holds(id) }

// Skip records a mount point, relative to the start, that the walk left
// out. Walkers that skip mounts by themselves (rg) report theirs here.
func (f *Fence) Skip(rel string) {
	f.nSkipped++
	if len(f.skipped) < shownMounts {
		f.skipped = append(f.skipped, rel)
	}
}

// Skipped lists the mount points left out, relative to the start, in the
// order met (at most 20).
func (f *Fence) Skipped() []string { return f.skipped }

// Warning says which mount points the walk left out, or is "" when none.
func (f *Fence) Warning() string {
	if f.nSkipped == 0 {
		return ""
	}
	names := make([]string, len(f.skipped))
	for i, s := range f.skipped {
		names[i] = fmt.Sprintf("%q", tool.Clip(s))
	}
	slices.Sort(names)
	list := strings.Join(names, ", ")
	if f.nSkipped > len(f.skipped) {
		list = fmt.Sprintf("%s and %d more", list, f.nSkipped-len(f.skipped))
	}
	return fmt.Sprintf("%d mount points below were not entered (another file system is mounted there): %s; pass cross_mounts: true to include them", f.nSkipped, list)
}

// MountsBelow picks, from the mount points the kernel lists for this
// process (absolute, as in /proc/self/mountinfo), those strictly below the
// start, relative to it, leaving out any inside another one listed: a walk
// that does not cross the outer mount never meets them. The start is named
// as the kernel resolved it, not as the caller spelled it.
func (f *Fence) MountsBelow(mountPoints []string) []string {
	at, err := os.Readlink(fmt.Sprintf("/proc/self/fd/%d", f.start.Fd()))
	if err != nil || !path.IsAbs(at) {
		return nil
	}
	var below []string
	for _, m := range mountPoints {
		if rel, ok := strictlyBelow(at, path.Clean(m)); ok && !slices.Contains(below, rel) {
			below = append(below, rel)
		}
	}
	var out []string
	for _, m := range below {
		if !slices.ContainsFunc(below, func(outer string) bool { _, ok := strictlyBelow(outer, m); return ok }) {
			out = append(out, m)
		}
	}
	return out
}

// strictlyBelow returns p relative to dir when p lies below dir.
func strictlyBelow(dir, p string) (string, bool) {
	if dir != "/" {
		dir += "/"
	}
	rel, ok := strings.CutPrefix(p, dir)
	return rel, ok && rel != ""
}

// SingleDeviceFS reports whether the fence's start lies on a file system
// type whose directories all share its device unless something is mounted
// on them (ext2/3/4, xfs, tmpfs): there, with no mount point below the
// start, a walk told to stay on one file system (rg --one-file-system)
// walks exactly what one not told so does. Others may change devices
// without a mount (btrfs and bcachefs subvolumes, a network file system's
// automounted exports) or are not known to this list, and get false.
func (f *Fence) SingleDeviceFS() bool {
	var st unix.Statfs_t
	if err := unix.Fstatfs(int(f.start.Fd()), &st); err != nil {
		return false
	}
	switch uint32(st.Type) {
	case unix.EXT4_SUPER_MAGIC, unix.XFS_SUPER_MAGIC, unix.TMPFS_MAGIC:
		return true
	}
	return false
}
