package fsroot

import (
	"fmt"
	"os"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// Warnings says what the operator should know about the configured roots
// before they are served; hostmcp logs each at start-up. None stops it:
// the operator may mean it, but should have said so knowingly.
func Warnings(roots []config.Root, protectedHardlinks string) []string {
	var out []string
	for _, r := range roots {
		mode := "read-write"
		if r.ReadOnly {
			mode = "read-only"
		}
		if r.Path == "/" {
			out = append(out, fmt.Sprintf("root / (%s) gives the file tools the whole file system", mode))
		}
		// A root in /proc, /sys or /dev exposes the kernel's view of the
		// host rather than files: a write there can change the running
		// system (/proc/sys, /sys) or reach devices (/dev).
		if k, ok := kernelpath.PseudoTree(r.Path); ok {
			out = append(out, fmt.Sprintf("root %s (%s) is in %s, the kernel's view of the host, not ordinary files", r.Path, mode, k))
		}
		if r.Given != "" {
			out = append(out, fmt.Sprintf("root %s is a symbolic link to %s: the root is %s as resolved at start-up, and %s is accepted as its name; re-pointing the link later changes nothing until restart", r.Given, r.Path, r.Path, r.Given))
		}
	}
	if protectedHardlinks != "" && strings.TrimSpace(protectedHardlinks) != "1" {
		out = append(out, "fs.protected_hardlinks is not 1: users may hard-link files they cannot read into a root, where the file tools would read them; set it with sysctl fs.protected_hardlinks=1")
	}
	return out
}

// ProtectedHardlinks reads the kernel's fs.protected_hardlinks setting for
// Warnings; "" when it cannot be read.
func ProtectedHardlinks() string {
	b, err := os.ReadFile("/proc/sys/fs/protected_hardlinks")
	if err != nil {
		return ""
	}
	return string(b)
}
