package hostinfo

import (
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/procs"
)

// The per-process files of procfs, read for the toolsets that name a pid or
// a thread. They live here, under the Proc root, so no toolset opens
// /proc/<pid> itself and a container that mounts the host's procfs
// elsewhere sees the host's processes, not its own.

// Processes returns a reader of the process table under the Proc root,
// keeping at most maxCmdline bytes of each command line (the procs
// default when 0).
func (h *Host) Processes(maxCmdline int) (*procs.Reader, error) {
	return procs.New(h.roots.Proc, maxCmdline)
}

// ProcessExists reports whether pid names a process or thread now.
func (h *Host) ProcessExists(pid int) bool {
	if pid <= 0 {
		return false
	}
	_, err := os.Stat(h.procPath(strconv.Itoa(pid)))
	return err == nil
}

// ThreadOf reports whether tid is a thread of process pid.
func (h *Host) ThreadOf(tid, pid int) bool {
	if tid <= 0 || pid <= 0 {
		return false
	}
	_, err := os.Stat(h.procPath(strconv.Itoa(pid), "task", strconv.Itoa(tid)))
	return err == nil
}

// Comm is the name of a process or thread (/proc/<id>/comm); an error once
// it has exited.
func (h *Host) Comm(id int) (string, error) {
	if id <= 0 {
		return "", fmt.Errorf("pid %d: %w", id, ErrPIDNotFound)
	}
	return readTrimmed(h.procPath(strconv.Itoa(id), "comm"))
}

// Cwd is where a process works (/proc/<pid>/cwd), the directory its
// relative paths start from.
func (h *Host) Cwd(pid int) (string, error) {
	if pid <= 0 {
		return "", fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	return os.Readlink(h.procPath(strconv.Itoa(pid), "cwd"))
}

// FDTarget is what a process's descriptor points to (/proc/<pid>/fd/<fd>):
// a path, or "socket:[inode]" and the like.
func (h *Host) FDTarget(pid, fd int) (string, error) {
	if pid <= 0 || fd < 0 {
		return "", fmt.Errorf("pid %d fd %d: %w", pid, fd, ErrPIDNotFound)
	}
	return os.Readlink(h.procPath(strconv.Itoa(pid), "fd", strconv.Itoa(fd)))
}

// MappedFiles lists the files process pid has mapped (/proc/<pid>/maps),
// as paths in the process's own mount namespace; see [Host.ThroughRoot].
func (h *Host) MappedFiles(pid int) ([]string, error) {
	if pid <= 0 {
		return nil, fmt.Errorf("pid %d: %w", pid, ErrPIDNotFound)
	}
	b, err := os.ReadFile(h.procPath(strconv.Itoa(pid), "maps"))
	if err != nil {
		return nil, err
	}
	return parseMappedFiles(b), nil
}

// parseMappedFiles takes the path column of a maps file (proc_pid_maps(5)),
// each path once; anonymous and special mappings ([heap], [vdso]) have none.
func parseMappedFiles(b []byte) []string {
	var out []string
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 6 || !strings.HasPrefix(f[5], "/") || seen[f[5]] {
			continue
		}
		seen[f[5]] = true
		out = append(out, f[5])
	}
	return out
}

// ThroughRoot is path p of process pid's mount namespace reached through
// the process's root directory (/proc/<pid>/root/p), so a container's own
// files are reached rather than the host's of the same name.
func (h *Host) ThroughRoot(pid int, p string) string {
	return h.procPath(strconv.Itoa(pid), "root", p)
}

// OwnPIDNamespace reports whether the procfs under the Proc root numbers
// processes as hostmcp's own pid namespace does: whether its self is this
// process. A pid read there can then be handed to pidfd_open, kill or
// perf, which number processes in hostmcp's namespace. It is false for the
// host's procfs seen from a container with a pid namespace of its own
// (where it names another process, or none), and for a fixture tree.
func (h *Host) OwnPIDNamespace() bool {
	self, err := os.Readlink(h.procPath("self"))
	return err == nil && self == strconv.Itoa(os.Getpid())
}
