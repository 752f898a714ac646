// Package kernelpath names the only kernel paths hostmcp reaches where its
// own kernel mounts them rather than under [host] proc and sys.
//
// Everything hostmcp reads about the host (processes, CPU, memory, disks,
// cgroups) goes through hostinfo, rooted at [host] proc and sys, so that
// from a container it reads the host's procfs and sysfs mounted elsewhere.
// What is named here is not the host's state but hostmcp's own: its own
// process (/proc/self), the children it starts itself (numbered in its own
// pid namespace, so only its own procfs knows them), the pseudo-filesystem
// trees as the programs it traces or runs name them, and the kernel
// interfaces the eBPF loader needs where the kernel puts them. A test
// (toolsets_test.go) fails on any toolset that spells a /proc or /sys path
// itself, so this file is the whole list.
package kernelpath

import (
	"path/filepath"
	"strconv"
	"strings"
)

const (
	// Proc is hostmcp's own procfs: the parent of [SelfExe] and of the
	// children it starts ([Child]), and where a REPL session, in its own
	// namespaces, gets a procfs mounted for its programs.
	Proc = "/proc"
	// SelfExe is this very binary, even if its file was replaced since it
	// started: sessions re-execute it as their init.
	SelfExe = "/proc/self/exe"
	// SelfFDDir lists hostmcp's own descriptors.
	SelfFDDir = "/proc/self/fd"
	// SelfMountinfo is the mount table hostmcp itself sees, which decides
	// what its file and search tools cross.
	SelfMountinfo = "/proc/self/mountinfo"
	// SelfMounts is the same table in fstab form, where the eBPF loader
	// looks for tracefs.
	SelfMounts = "/proc/self/mounts"
	// BTF is the kernel's type information, which CO-RE programs are
	// relocated against when loaded; the loader reads it here.
	BTF = "/sys/kernel/btf/vmlinux"
	// Tracefs is where the eBPF loader finds (or mounts) tracefs to read
	// tracepoint ids.
	Tracefs = "/sys/kernel/tracing"
	// DebugfsTracing is tracefs's older place, under debugfs.
	DebugfsTracing = "/sys/kernel/debug/tracing"
)

// SelfFD is the path of one of hostmcp's own descriptors, which names the
// file it holds open (to link, re-open or pass it by path).
func SelfFD(fd uintptr) string {
	return SelfFDDir + "/" + strconv.FormatUint(uint64(fd), 10)
}

// Child is a file of /proc/<pid> for a process hostmcp started itself (a
// session's init, its program): its pid is numbered in hostmcp's own pid
// namespace, which [host] proc need not be.
func Child(pid int, elem ...string) string {
	return filepath.Join(append([]string{Proc, strconv.Itoa(pid)}, elem...)...)
}

// pseudoTrees are the kernel's pseudo file systems as programs name them
// (and as a root would): reading there reads the kernel, not files.
var pseudoTrees = [...]string{"/proc", "/sys", "/dev"}

// PseudoTree says which of the kernel's pseudo-filesystem trees (/proc,
// /sys, /dev) path p, as a program names it, is in: the tree itself, or
// below it.
func PseudoTree(p string) (string, bool) {
	for _, t := range pseudoTrees {
		if p == t || strings.HasPrefix(p, t+"/") {
			return t, true
		}
	}
	return "", false
}
