package search

import (
	"os"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// mountTable is the list of mount points the server sees, kept between
// searches and read again only when the kernel says it changed: every rg
// search names the mount points below its root that rg's
// --one-file-system left out, and reading and parsing /proc/self/mountinfo
// for that cost a tenth of a small search's own CPU here, and grows with
// the table (hundreds of lines on a host running containers).
//
// The kernel marks a mountinfo descriptor with POLLPRI (and POLLERR) once
// its mount namespace's table changed since the descriptor last reported
// it, or since it was opened (proc(5), /proc/pid/mounts; fs/proc_namespace.c
// mounts_poll). So the descriptor is opened before the first read, and
// polled, without waiting, before each use: a mount or unmount between the
// open and the read is reported at the next use and only reads the table
// again. The descriptor is kept out of Go's poller on purpose: the
// runtime's epoll would take the change notice for itself. A stale list
// could only ever mislead the warning: which files a search reads is
// decided by the mount of each descriptor (fsroot.Fence), never by this
// list. Its methods may be called from several goroutines.
type mountTable struct {
	mu     sync.Mutex
	f      *os.File // nil until first used; blocking, so never in the poller
	points []string
	ok     bool // points holds the table read since the last change
}

// mountPoints returns the mount points of the server's mount namespace,
// absolute, as /proc/self/mountinfo lists them. A nil table reads the file
// at each call.
func (t *mountTable) mountPoints() ([]string, error) {
	if t == nil {
		info, err := os.ReadFile(kernelpath.SelfMountinfo)
		if err != nil {
			return nil, err
		}
		return hostinfo.MountPoints(info)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.f == nil {
		fd, err := unix.Open(kernelpath.SelfMountinfo, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, err
		}
		t.f = os.NewFile(uintptr(fd), kernelpath.SelfMountinfo) // closed when the table is dropped
	}
	if t.ok && !t.changed() {
		return t.points, nil
	}
	t.ok = false
	info, err := t.read()
	if err != nil {
		return nil, err
	}
	points, err := hostinfo.MountPoints(info)
	if err != nil {
		return nil, err
	}
	t.points, t.ok = points, true
	return points, nil
}

// changed polls the descriptor without waiting; an error counts as a change.
func (t *mountTable) changed() bool {
	pfd := []unix.PollFd{{Fd: int32(t.f.Fd()), Events: unix.POLLPRI}}
	for {
		n, err := unix.Poll(pfd, 0)
		if err == unix.EINTR {
			continue
		}
		return err != nil || n > 0 && pfd[0].Revents&(unix.POLLPRI|unix.POLLERR|unix.POLLNVAL) != 0
	}
}

// read reads the whole table from its start.
func (t *mountTable) read() ([]byte, error) {
	fd := int(t.f.Fd())
	if _, err := unix.Seek(fd, 0, 0); err != nil {
		return nil, err
	}
	buf := make([]byte, 0, 16<<10)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}
