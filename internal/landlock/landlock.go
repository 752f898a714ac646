// Package landlock confines the programs hostmcp runs over files (ripgrep)
// to the directory they were asked to read, with the kernel's Landlock LSM:
// the child may read below that directory, load its own binary and shared
// libraries, and nothing else: no other file, no writes, no TCP, no signals
// outside itself. os.Root keeps hostmcp's own file access inside the roots;
// this does the same for a child, whose path walks os.Root cannot see.
//
// Landlock restricts the calling thread and what it forks, and cannot be
// lifted, so RestrictThread is meant for a locked OS thread that forks the
// child and then dies with its goroutine (internal/execx does this).
package landlock

import (
	"errors"
	"fmt"
	"os"
	"sync"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Policy is what a confined child may reach besides its own program.
type Policy struct {
	// Read are open files or directories the child may read, below them
	// for directories. The rules hold for the opened objects, not for
	// paths, so a path swapped for a symbolic link afterwards changes
	// nothing.
	Read []*os.File
	// Program is the absolute path of the binary the child executes.
	Program string
}

// runtimeFiles are what a dynamically linked program needs to start: the
// loader, shared libraries and the loader's cache, read and mapped
// executable; and /dev/null, which os/exec opens on the forking thread for
// an absent stdin.
var runtimeFiles = []struct {
	path   string
	access uint64
}{
	{"/lib", readExec}, {"/lib64", readExec}, {"/lib32", readExec},
	{"/usr/lib", readExec}, {"/usr/lib64", readExec}, {"/usr/lib32", readExec}, {"/usr/local/lib", readExec},
	{"/etc/ld.so.cache", unix.LANDLOCK_ACCESS_FS_READ_FILE},
	{"/dev/null", unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE},
}

const (
	readFile = unix.LANDLOCK_ACCESS_FS_READ_FILE
	readDir  = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	readExec = readDir | unix.LANDLOCK_ACCESS_FS_EXECUTE
)

var abi = sync.OnceValue(func() int {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0 // ENOSYS: not built in; EOPNOTSUPP: not enabled at boot
	}
	return int(v)
})

// ABI is the kernel's Landlock ABI version, 0 where Landlock is missing or
// disabled.
func ABI() int { return abi() }

// handled are the rights the ruleset governs on this kernel's ABI: all it
// knows, so that what no rule grants is denied.
func handled(v int) unix.LandlockRulesetAttr {
	var a unix.LandlockRulesetAttr
	a.Handled_access_fs = 1<<13 - 1 // ABI 1: execute ... make_sym
	if v >= 2 {
		a.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if v >= 3 {
		a.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if v >= 4 {
		a.Handled_access_net = unix.LANDLOCK_ACCESS_NET_BIND_TCP | unix.LANDLOCK_ACCESS_NET_CONNECT_TCP
	}
	if v >= 5 {
		a.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	if v >= 6 {
		a.Scoped = unix.LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | unix.LANDLOCK_SCOPE_SIGNAL
	}
	return a
}

// ErrUnsupported means this kernel has no Landlock.
var ErrUnsupported = errors.New("this kernel has no Landlock (Linux 5.13+ with landlock in the lsm= list)")

// RestrictThread confines the calling OS thread, and every process it
// forks from now on, to p. The caller must hold the thread locked
// (runtime.LockOSThread) and never unlock it, so that the thread ends with
// its goroutine instead of going back to the scheduler confined.
func RestrictThread(p Policy) error {
	v := ABI()
	if v == 0 {
		return ErrUnsupported
	}
	attr := handled(v)
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	ruleset := int(fd)
	defer unix.Close(ruleset)
	for _, f := range p.Read {
		if err := allow(ruleset, int(f.Fd()), readDir, attr.Handled_access_fs); err != nil {
			return fmt.Errorf("allowing %s: %w", f.Name(), err)
		}
	}
	if err := allowPath(ruleset, p.Program, readFile|unix.LANDLOCK_ACCESS_FS_EXECUTE, attr.Handled_access_fs); err != nil {
		return fmt.Errorf("allowing %s: %w", p.Program, err)
	}
	for _, r := range runtimeFiles {
		if err := allowPath(ruleset, r.path, r.access, attr.Handled_access_fs); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("allowing %s: %w", r.path, err)
		}
	}
	// Required to restrict oneself without CAP_SYS_ADMIN; it also keeps the
	// child from gaining privileges through set-user-ID programs.
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

func allowPath(ruleset int, path string, access, handledFS uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return allow(ruleset, fd, access, handledFS)
}

// allow grants access below fd. Rights that only make sense for
// directories are dropped for a file, as the kernel requires.
func allow(ruleset, fd int, access, handledFS uint64) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		access &= unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
			unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: access & handledFS, Parent_fd: int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
