// Package hostinfo reads what a host is and how busy it is from procfs and sysfs.
//
// Every reader takes its filesystem roots from [Roots], so tests point a [Host]
// at a fixture tree under testdata/ and run in parallel; nothing here executes a
// program. I/O is kept apart from parsing: each parse function takes bytes and is
// fuzzed.
package hostinfo

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Roots are the places the host's pseudo filesystems are read from. An empty field
// takes its default, so Roots{} reads the live host.
type Roots struct {
	// Proc is where procfs is mounted; default "/proc".
	Proc string
	// Sys is where sysfs is mounted; default "/sys".
	Sys string
	// RootFS is the root directory seen by the processes being described, where
	// container markers such as /.dockerenv and /run/.containerenv live; default "/".
	RootFS string
}

// Host reads one host through its Roots. It holds no other state, so one Host is
// safe for concurrent use.
type Host struct {
	roots Roots
}

// New returns a Host reading from roots, with empty fields set to their defaults.
func New(roots Roots) *Host {
	if roots.Proc == "" {
		roots.Proc = "/proc"
	}
	if roots.Sys == "" {
		roots.Sys = "/sys"
	}
	if roots.RootFS == "" {
		roots.RootFS = "/"
	}
	return &Host{roots: roots}
}

// Roots returns the roots h reads from, defaults filled in.
func (h *Host) Roots() Roots { return h.roots }

func (h *Host) procPath(elem ...string) string {
	return filepath.Join(append([]string{h.roots.Proc}, elem...)...)
}

func (h *Host) sysPath(elem ...string) string {
	return filepath.Join(append([]string{h.roots.Sys}, elem...)...)
}

func (h *Host) rootPath(elem ...string) string {
	return filepath.Join(append([]string{h.roots.RootFS}, elem...)...)
}

// readTrimmed reads a one-value pseudo file such as /proc/sys/kernel/osrelease.
func readTrimmed(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

// exists reports whether path can be stat'ed; a permission error counts as
// present, since the kernel created the entry even if we may not look inside.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil || errors.Is(err, fs.ErrPermission)
}

// warnings collects the reasons a field fell back to its zero value, so callers
// can pass them to the agent instead of failing the whole call.
type warnings []string

func (w *warnings) add(format string, args ...any) {
	*w = append(*w, fmt.Sprintf(format, args...))
}
