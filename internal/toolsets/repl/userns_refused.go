package repl

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// usernsBlock is a kernel setting that keeps a server that is not root
// from making the user namespace its sessions need.
type usernsBlock struct {
	setting string // as sysctl(8) names it
	value   string
	fix     string // how an operator lifts it
}

// usernsBlocked reads, below the proc file system at proc, the settings
// with which kernels refuse an ordinary user a user namespace, and returns
// the first that does, or nil:
//
//   - user.max_user_namespaces 0, on any kernel;
//   - kernel.unprivileged_userns_clone 0, the switch of Debian's kernels
//     and Ubuntu's before 23.10;
//   - kernel.apparmor_restrict_unprivileged_userns 1 (Ubuntu 23.10 on) for
//     a server AppArmor does not confine: the namespace is made, but
//     without capabilities, so init could not mount its /proc. A server
//     under a profile of its own may have been granted them; it is let try.
func usernsBlocked(proc string) *usernsBlock {
	read := func(name string) string {
		b, _ := os.ReadFile(filepath.Join(proc, name))
		return strings.TrimSpace(string(b))
	}
	if v := read("sys/user/max_user_namespaces"); v == "0" {
		return &usernsBlock{"user.max_user_namespaces", v,
			"sysctl -w user.max_user_namespaces=10000 (and the same in /etc/sysctl.d to keep it)"}
	}
	if v := read("sys/kernel/unprivileged_userns_clone"); v == "0" {
		return &usernsBlock{"kernel.unprivileged_userns_clone", v,
			"sysctl -w kernel.unprivileged_userns_clone=1 (and the same in /etc/sysctl.d to keep it)"}
	}
	if v := read("sys/kernel/apparmor_restrict_unprivileged_userns"); v == "1" {
		label := read("self/attr/apparmor/current")
		if label == "" {
			label = read("self/attr/current")
		}
		if label == "" || label == "unconfined" {
			return &usernsBlock{"kernel.apparmor_restrict_unprivileged_userns", v,
				"an AppArmor profile for hostmcp that allows userns (as Ubuntu gives browsers), or sysctl -w kernel.apparmor_restrict_unprivileged_userns=0"}
		}
	}
	return nil
}

// UserNSCheck says, for hostmcp doctor, whether sessions need a user
// namespace here (the server is not root) and, if the kernel refuses one,
// which setting does ("user.max_user_namespaces is 0") and how to lift it.
func UserNSCheck() (needed bool, blocked, fix string) {
	if !needsUserNS() {
		return false, "", ""
	}
	if b := usernsBlocked(kernelpath.Proc); b != nil {
		return true, b.setting + " is " + b.value, b.fix
	}
	return true, "", ""
}

// refusal is the answer of proc_start where b keeps sessions from starting.
func (b *usernsBlock) refusal() *tool.Error {
	return tool.Errorf(tool.CapabilityMissing, "sessions of a server that does not run as root need a user namespace, and this kernel allows it none: %s is %s", b.setting, b.value).
		WithSuggestion("Ask the operator for %s, or to run hostmcp as root; until then the file, search and process tools still work.", b.fix)
}

// startRefused turns the kernel's refusal to make a session's user
// namespace, which no setting of usernsBlocked explains (a limit reached
// here or in an enclosing namespace, a security module, a container's
// seccomp profile), into CAPABILITY_MISSING; other errors it returns as
// they are.
func startRefused(err error, proc string) error {
	full := errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EUSERS)
	if !full && !errors.Is(err, syscall.EPERM) {
		return err
	}
	limit, _ := os.ReadFile(filepath.Join(proc, "sys/user/max_user_namespaces"))
	te := tool.Wrap(tool.CapabilityMissing, err, "sessions of a server that does not run as root need a user namespace, and the kernel refused one: %v (user.max_user_namespaces is %s here; an enclosing namespace's limit, a security module or a seccomp profile can refuse it too)",
		err, strings.TrimSpace(string(limit)))
	if full {
		return te.WithSuggestion("Stop sessions no longer needed (proc_stop) and retry; or ask the operator to raise user.max_user_namespaces for hostmcp's user, or to run hostmcp as root.")
	}
	return te.WithSuggestion("Ask the operator to allow hostmcp's user to create user namespaces, or to run hostmcp as root; until then the file, search and process tools still work.")
}
