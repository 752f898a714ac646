package repl

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// namespaced is how a session init is started: leader of its own session,
// killed with the server, in new PID and mount namespaces. A server that is
// not root cannot make those alone; it adds a user namespace in which only
// its own user and group exist, as themselves (`unshare -c`), so the
// program has no more than the server's user had on the host and, unlike
// under `unshare -r`, does not take itself for root. userns says it did:
// the caller must then map that namespace (mapIDs) once init has started.
//
// Why not let os/exec write the maps, between fork and exec as it does: the
// server is non-dumpable (execx.Harden), and so is every child it forks until
// that child execs. The kernel gives the /proc files of a non-dumpable
// process to root, uid_map and gid_map included, so a server that is not
// root may not open them then ("fork/exec /proc/self/exe: permission
// denied"). Making the server dumpable for the moment of the fork would let
// any process of its user (a program perf or git runs, for one) open the
// server's /proc/PID/mem or environ in that moment and keep the descriptor
// for good. Instead init execs unmapped; exec makes it dumpable, its /proc
// files its user's, and the server writes its maps then.
//
// Exec would take from init the capabilities its new user namespace gave
// it: exec keeps them only for the namespace's root, which does not exist
// there. So it carries, as ambient capabilities, the two it needs in that
// namespace and nowhere else: CAP_SYS_ADMIN to mount its /proc and HOME,
// CAP_SETPCAP to empty its bounding set. It drops both, with the rest,
// before the program starts.
func namespaced() (attr *syscall.SysProcAttr, userns bool) {
	attr = &syscall.SysProcAttr{
		Setsid:     true,
		Pdeathsig:  syscall.SIGKILL,
		Cloneflags: syscall.CLONE_NEWPID | syscall.CLONE_NEWNS,
	}
	if !needsUserNS() {
		return attr, false
	}
	attr.Cloneflags |= syscall.CLONE_NEWUSER
	attr.AmbientCaps = []uintptr{unix.CAP_SYS_ADMIN, unix.CAP_SETPCAP}
	return attr, true
}

// needsUserNS reports whether sessions need a user namespace: whether
// the server is not root.
func needsUserNS() bool { return os.Geteuid() != 0 }

// mapIDs maps the server's own user and group, and nothing else (all an
// unprivileged process may map), into the user namespace of the session
// init pid, which this server started and has not reaped; then it tells
// init, which waits on the other end of ready, that it may go on.
// ready is closed either way: init reads the end of it as a failure.
func mapIDs(pid int, ready *os.File) error {
	defer ready.Close()
	for _, m := range []struct{ file, text string }{
		{"setgroups", "deny"}, // the kernel lets an unprivileged process map a group only after this
		{"gid_map", fmt.Sprintf("%[1]d %[1]d 1\n", os.Getegid())},
		{"uid_map", fmt.Sprintf("%[1]d %[1]d 1\n", os.Geteuid())},
	} {
		if err := writeOnce(kernelpath.Child(pid, m.file), m.text); err != nil {
			if errors.Is(err, os.ErrPermission) && !selfReadable() {
				exe, _ := os.Executable()
				return tool.Wrap(tool.CapabilityMissing, err, "sessions cannot start: the hostmcp binary is not readable by the user it runs as, so the kernel makes every exec of it non-dumpable, the session's init included, whose user namespace the server then may not map (%v)", err).
					WithSuggestion("Make the binary readable (chmod a+r %s), or run hostmcp as root; until then the file, search and process tools still work.", exe)
			}
			return fmt.Errorf("mapping the session's user namespace: %w", err)
		}
	}
	if _, err := ready.Write([]byte{1}); err != nil {
		return fmt.Errorf("releasing the session init: %w", err)
	}
	return nil
}

// selfReadable reports whether this binary may be read by the user it runs
// as, and not only executed: exec leaves a program dumpable only then.
func selfReadable() bool {
	f, err := os.Open(kernelpath.SelfExe)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

// writeOnce writes text to an existing file in a single write(2), as
// /proc's id maps demand.
func writeOnce(name, text string) error {
	f, err := os.OpenFile(name, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
