package bpftrace

import (
	"bufio"
	"debug/elf"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// A uprobe, uretprobe or USDT probe attaches to a file's inode: every
// process that runs or maps that file is traced, whoever started it. So the
// file is judged as the kernel will find it (symlinks followed, by device
// and inode), never by how the program spells its path.

// sensitivity is a reason a user-space probe on a file is off unless the
// configuration allows it.
type sensitivity struct {
	key  string // the [bpftrace] setting that allows it
	what string // for the message: "a shell", ...
}

var (
	shellTarget   = sensitivity{"allow_shell_uprobes", "a shell"}
	libraryTarget = sensitivity{"allow_library_uprobes", "a shared library, mapped into every process that uses it"}
	othersTarget  = sensitivity{"allow_others_uprobes", "owned by a user other than root and the server's"}
	setIDTarget   = sensitivity{othersTarget.key, "setuid or setgid (it runs for whoever starts it)"}
)

// fileID is a file as the kernel knows it.
type fileID struct{ dev, ino uint64 }

// targetPolicy judges the files user-space probes attach to.
type targetPolicy struct {
	owners map[uint32]bool   // root and the server's own user
	shells map[fileID]string // every shell found, with the path that named it
}

// shellNames are shells looked for in binDirs besides those /etc/shells
// lists, which is often incomplete (busybox, a shell installed by hand).
var (
	shellNames = []string{"sh", "bash", "rbash", "dash", "zsh", "rzsh", "fish", "ksh", "ksh93", "mksh", "lksh", "pdksh", "oksh",
		"tcsh", "csh", "ash", "yash", "posh", "busybox", "elvish", "nu", "xonsh", "pwsh"}
	binDirs = []string{"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin", "/usr/local/sbin"}
)

// loadTargetPolicy reads the host's shells afresh: a shell installed after
// start-up is known at the next check.
func loadTargetPolicy(etcShells string, euid int) targetPolicy {
	p := targetPolicy{owners: map[uint32]bool{0: true, uint32(euid): true}, shells: map[fileID]string{}}
	var paths []string
	if f, err := os.Open(etcShells); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if l := strings.TrimSpace(sc.Text()); strings.HasPrefix(l, "/") {
				paths = append(paths, l)
			}
		}
		f.Close()
	}
	for _, d := range binDirs {
		for _, n := range shellNames {
			paths = append(paths, filepath.Join(d, n))
		}
	}
	for _, path := range paths {
		if fd, id, _, err := identify(path); err == nil {
			unix.Close(fd)
			if _, seen := p.shells[id]; !seen {
				p.shells[id] = path
			}
		}
	}
	return p
}

// errNotRegular is a path that names something other than a regular
// file, which bpftrace cannot attach to.
var errNotRegular = errors.New("not a regular file")

// identify finds the file a path names as the kernel resolves it
// (symlinks followed) without opening it for reading: an O_PATH descriptor
// does not reach a device's driver (opening /dev/watchdog arms it) and
// cannot block on a FIFO. The caller closes the descriptor.
func identify(path string) (int, fileID, *unix.Stat_t, error) {
	fd, err := unix.Open(path, unix.O_PATH|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, fileID{}, nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, fileID{}, nil, &fs.PathError{Op: "fstat", Path: path, Err: err}
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		unix.Close(fd)
		return -1, fileID{}, nil, errNotRegular
	}
	return fd, fileID{st.Dev, st.Ino}, &st, nil
}

// reopen opens for reading the regular file an O_PATH descriptor holds,
// the very inode identify judged, not whatever its path names now.
func reopen(fd int) (*os.File, error) {
	return os.Open(kernelpath.SelfFD(uintptr(fd)))
}

// judge returns why a probe on the file at path needs a setting, and the
// shell it is when it is one; none when it is a root-owned (or the
// server's) program that is not a shell, a library or set-id. A path that
// does not name a regular file has nothing to attach to: none either.
func (p targetPolicy) judge(path string) ([]sensitivity, string, error) {
	fd, id, st, err := identify(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errNotRegular) || errors.Is(err, unix.ENOTDIR) {
		return nil, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer unix.Close(fd)
	var out []sensitivity
	shell, isShell := p.shells[id]
	if isShell {
		out = append(out, shellTarget)
	}
	f, err := reopen(fd)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	if isLibrary(f) {
		out = append(out, libraryTarget)
	}
	if !p.owners[st.Uid] {
		out = append(out, othersTarget)
	}
	if st.Mode&(unix.S_ISUID|unix.S_ISGID) != 0 {
		out = append(out, setIDTarget)
	}
	return out, shell, nil
}

// isLibrary tells a shared library from a program: an ELF shared object
// that has a DT_SONAME (libc.so.6, which is also runnable, has one) or no
// PT_INTERP (a plugin such as pam_unix.so has neither). A position-
// independent program has PT_INTERP and no soname. A file that is not ELF
// is not a library (bpftrace will not attach to it).
func isLibrary(r io.ReaderAt) bool {
	f, err := elf.NewFile(r)
	if err != nil || f.Type != elf.ET_DYN {
		return false
	}
	interp := false
	for _, p := range f.Progs {
		interp = interp || p.Type == elf.PT_INTERP
	}
	soname, _ := f.DynString(elf.DT_SONAME)
	return len(soname) > 0 || !interp
}
