package landlock

import (
	"os"

	"golang.org/x/sys/unix"
)

// Access is a set of rights a rule grants on a file, or below a directory.
// Rights a file cannot have (listing, creating entries) are dropped for
// files, and rights this kernel's ABI does not know are dropped too.
type Access uint64

// The sets of rights policies grant.
const (
	// Read reads files and lists directories.
	Read Access = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_READ_DIR
	// Exec is Read, and executing files.
	Exec = Read | unix.LANDLOCK_ACCESS_FS_EXECUTE
	// Write is Read, and writing, truncating, creating, removing and
	// renaming files, directories, symbolic links, FIFOs and sockets; not
	// executing, not making device nodes.
	Write = Read | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE |
		unix.LANDLOCK_ACCESS_FS_REMOVE_DIR | unix.LANDLOCK_ACCESS_FS_REMOVE_FILE |
		unix.LANDLOCK_ACCESS_FS_MAKE_DIR | unix.LANDLOCK_ACCESS_FS_MAKE_REG | unix.LANDLOCK_ACCESS_FS_MAKE_SYM |
		unix.LANDLOCK_ACCESS_FS_MAKE_FIFO | unix.LANDLOCK_ACCESS_FS_MAKE_SOCK | unix.LANDLOCK_ACCESS_FS_REFER
	// Device reads, writes and controls (ioctl) a device such as a terminal.
	Device Access = unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV
)

// fileRights are the rights that apply to a file that is not a directory.
const fileRights = unix.LANDLOCK_ACCESS_FS_EXECUTE | unix.LANDLOCK_ACCESS_FS_READ_FILE |
	unix.LANDLOCK_ACCESS_FS_WRITE_FILE | unix.LANDLOCK_ACCESS_FS_TRUNCATE | unix.LANDLOCK_ACCESS_FS_IOCTL_DEV

// Policy is what a confined child may reach besides its own program, the
// loader and the shared libraries.
type Policy struct {
	// Read are open files or directories the child may read, below them
	// for directories. The rules hold for the opened objects, not for
	// paths, so a path swapped for a symbolic link afterwards changes
	// nothing.
	Read []*os.File
	// Rules grant more on open files or directories, held as Read's are.
	Rules []Rule
	// Paths grant access by path, opened when the ruleset is built; a path
	// that does not exist then is left out.
	Paths []PathRule
	// Program is the absolute path of the binary the child executes.
	Program string
	// TCP leaves TCP bind and connect as they are; otherwise both are
	// denied, on kernels whose ABI reaches TCPABI.
	TCP bool
}

// grantsTruncate reports whether any rule of p grants the truncate right;
// Read and the runtime files never do.
func (p Policy) grantsTruncate() bool {
	for _, r := range p.Rules {
		if r.Access&unix.LANDLOCK_ACCESS_FS_TRUNCATE != 0 {
			return true
		}
	}
	for _, r := range p.Paths {
		if r.Access&unix.LANDLOCK_ACCESS_FS_TRUNCATE != 0 {
			return true
		}
	}
	return false
}

// Rule grants Access on an open file or directory.
type Rule struct {
	File   *os.File
	Access Access
}

// PathRule grants Access on a path.
type PathRule struct {
	Path   string
	Access Access
}

// runtimeFiles are what a dynamically linked program needs to start: the
// loader, shared libraries and the loader's cache, read and mapped
// executable; and /dev/null, which os/exec opens on the forking thread for
// an absent stdin.
var runtimeFiles = []PathRule{
	{"/lib", Exec}, {"/lib64", Exec}, {"/lib32", Exec},
	{"/usr/lib", Exec}, {"/usr/lib64", Exec}, {"/usr/lib32", Exec}, {"/usr/local/lib", Exec},
	{"/etc/ld.so.cache", Read},
	{"/dev/null", unix.LANDLOCK_ACCESS_FS_READ_FILE | unix.LANDLOCK_ACCESS_FS_WRITE_FILE},
}
