// Package landlock confines the programs hostmcp runs with the kernel's
// Landlock LSM: ripgrep to the directory it was asked to read, interactive
// sessions to the roots and the few system files their interpreters need.
// A confined child may reach what its Policy grants, its own binary, the
// loader and shared libraries, and nothing else: no other file, no writes
// unless granted, no TCP unless allowed, no signals or abstract sockets
// outside itself. os.Root keeps hostmcp's own file access inside the roots;
// this does the same for a child, whose path walks os.Root cannot see.
//
// Landlock restricts the calling thread and what it forks, and cannot be
// lifted, so RestrictThread and RestrictSelf are meant for a locked OS
// thread that forks the child and then dies with its goroutine
// (internal/execx does this), or for a process that only exists to start
// the child (the session init).
//
// Why not github.com/landlock-lsm/go-landlock: it restricts every thread
// of the process at once (through libpsx, or the kernel's TSYNC from ABI 8),
// which a server that confines one child at a time must not do, and it
// adds rules by path only, while rules here hold for files already opened,
// so that a path swapped for a symbolic link afterwards changes nothing.
package landlock

import (
	"errors"
	"sync"

	"golang.org/x/sys/unix"
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

// TCPABI is the first ABI that can deny TCP bind and connect (Linux 6.7).
// On an older one a Policy's TCP setting cannot be enforced.
const TCPABI = 4

// ErrUnsupported means this kernel has no Landlock.
var ErrUnsupported = errors.New("this kernel has no Landlock (Linux 5.13+ with landlock in the lsm= list)")

// handled are the rights a ruleset governs on this kernel's ABI: all it
// knows, so that what no rule grants is denied; TCP only when tcp is false,
// since a handled right without a rule is denied everywhere; truncation
// only when truncate is true, false being for a thread whose seccomp
// filter refuses it (see truncate.go).
func handled(v int, tcp, truncate bool) unix.LandlockRulesetAttr {
	var a unix.LandlockRulesetAttr
	a.Handled_access_fs = 1<<13 - 1 // ABI 1: execute ... make_sym
	if v >= 2 {
		a.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_REFER
	}
	if v >= 3 && truncate {
		a.Handled_access_fs |= unix.LANDLOCK_ACCESS_FS_TRUNCATE
	}
	if v >= TCPABI && !tcp {
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
