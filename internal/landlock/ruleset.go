package landlock

import (
	"errors"
	"fmt"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"
)

// RestrictThread confines the calling OS thread, and every process it
// forks from now on, to p. The caller must hold the thread locked
// (runtime.LockOSThread) and never unlock it, so that the thread ends with
// its goroutine instead of going back to the scheduler confined.
//
// Where p grants the truncate right nowhere, a seccomp filter on the
// thread refuses truncation instead of Landlock (see truncate.go); where
// that filter cannot be installed, Landlock handles the right as for any
// other policy. Either way a file is never left truncatable.
func RestrictThread(p Policy) error { return restrictThread(p, denyTruncation) }

// restrictThread is RestrictThread with the filter's installer given, so
// that a test can make it fail.
func restrictThread(p Policy, denyTruncation func() error) error {
	v := ABI()
	if v == 0 {
		return ErrUnsupported
	}
	if err := noNewPrivs(); err != nil {
		return err
	}
	truncate := true
	if !p.grantsTruncate() && denyTruncation() == nil {
		truncate = false // the filter refuses it for the thread and its children
	}
	rs, err := newRuleset(p, handled(v, p.TCP, truncate))
	if err != nil {
		return err
	}
	defer rs.Close()
	return RestrictSelf(int(rs.Fd()))
}

// NewRuleset builds the Landlock ruleset of p, to be enforced later, maybe
// by another process that inherits it (the session init): the rules are
// bound to the files opened here, by this process. It handles the truncate
// right whatever p grants: no filter comes with it.
func NewRuleset(p Policy) (*os.File, error) {
	v := ABI()
	if v == 0 {
		return nil, ErrUnsupported
	}
	return newRuleset(p, handled(v, p.TCP, true))
}

func newRuleset(p Policy, attr unix.LandlockRulesetAttr) (*os.File, error) {
	fd, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, uintptr(unsafe.Pointer(&attr)), unsafe.Sizeof(attr), 0)
	if errno != 0 {
		return nil, fmt.Errorf("landlock_create_ruleset: %w", errno)
	}
	rs := os.NewFile(fd, "landlock-ruleset")
	if err := addRules(int(fd), p, attr.Handled_access_fs); err != nil {
		rs.Close()
		return nil, err
	}
	return rs, nil
}

func addRules(ruleset int, p Policy, handledFS uint64) error {
	for _, f := range p.Read {
		if err := allow(ruleset, int(f.Fd()), Read, handledFS); err != nil {
			return fmt.Errorf("allowing %s: %w", f.Name(), err)
		}
	}
	for _, r := range p.Rules {
		if err := allow(ruleset, int(r.File.Fd()), r.Access, handledFS); err != nil {
			return fmt.Errorf("allowing %s: %w", r.File.Name(), err)
		}
	}
	if p.Program != "" {
		if err := allowPath(ruleset, p.Program, unix.LANDLOCK_ACCESS_FS_READ_FILE|unix.LANDLOCK_ACCESS_FS_EXECUTE, handledFS); err != nil {
			return fmt.Errorf("allowing %s: %w", p.Program, err)
		}
	}
	for _, r := range append(runtimeFiles[:len(runtimeFiles):len(runtimeFiles)], p.Paths...) {
		if err := allowPath(ruleset, r.Path, r.Access, handledFS); err != nil && !errors.Is(err, unix.ENOENT) {
			return fmt.Errorf("allowing %s: %w", r.Path, err)
		}
	}
	return nil
}

// AddPaths adds rules by path to a ruleset built by NewRuleset, maybe in
// another process: the session init adds the file systems it mounts
// itself, which the server cannot open. A rule on a directory that a mount
// hides does not reach into the mount (Landlock skips hidden mount points),
// so the rule must name the mount's own root, opened after it was mounted.
func AddPaths(ruleset int, rules []PathRule) error {
	handledFS := handled(ABI(), true, true).Handled_access_fs
	for _, r := range rules {
		if err := allowPath(ruleset, r.Path, r.Access, handledFS); err != nil {
			return fmt.Errorf("allowing %s: %w", r.Path, err)
		}
	}
	return nil
}

// RestrictSelf enforces the ruleset on the calling thread and what it forks
// from now on. It sets no_new_privs first: Landlock requires it of a
// thread without CAP_SYS_ADMIN, and it keeps the child from gaining
// privileges through set-user-ID programs.
func RestrictSelf(ruleset int) error {
	if err := noNewPrivs(); err != nil {
		return err
	}
	if _, _, errno := unix.Syscall(unix.SYS_LANDLOCK_RESTRICT_SELF, uintptr(ruleset), 0, 0); errno != 0 {
		return fmt.Errorf("landlock_restrict_self: %w", errno)
	}
	return nil
}

// noNewPrivs sets no_new_privs on the calling thread, as Landlock and
// seccomp both require of a thread without CAP_SYS_ADMIN.
func noNewPrivs() error {
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("prctl(PR_SET_NO_NEW_PRIVS): %w", err)
	}
	return nil
}

func allowPath(ruleset int, path string, access Access, handledFS uint64) error {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	defer unix.Close(fd)
	return allow(ruleset, fd, access, handledFS)
}

// allow grants access below fd. Rights that only make sense for
// directories are dropped for a file, as the kernel requires.
func allow(ruleset, fd int, access Access, handledFS uint64) error {
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return err
	}
	a := uint64(access)
	if st.Mode&unix.S_IFMT != unix.S_IFDIR {
		a &= fileRights
	}
	a &= handledFS
	if a == 0 {
		return nil // nothing this kernel governs: the kernel refuses an empty rule
	}
	rule := unix.LandlockPathBeneathAttr{Allowed_access: a, Parent_fd: int32(fd)}
	_, _, errno := unix.Syscall6(unix.SYS_LANDLOCK_ADD_RULE, uintptr(ruleset), unix.LANDLOCK_RULE_PATH_BENEATH,
		uintptr(unsafe.Pointer(&rule)), 0, 0, 0)
	if errno != 0 {
		return errno
	}
	return nil
}
