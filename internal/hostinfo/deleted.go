package hostinfo

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// DeletedOpen is space a file system cannot free yet: files deleted while
// still open (a rotated log a daemon still writes, say), which df counts and
// du cannot see. Holders are the largest, with the process keeping each.
type DeletedOpen struct {
	Bytes   uint64   `json:"bytes"` // allocated, each file once
	Files   int      `json:"files"`
	Holders []string `json:"holders"` // "pid 1234 (java) /var/log/app.log, 2.0 GiB"
	Partial bool     `json:"partial,omitempty"`
}

// deletedHolders is how many of the largest deleted files are named.
const deletedHolders = 3

// FindDeletedOpen looks through every process's descriptors for deleted
// files on the file systems devs ("major:minor", as in mountinfo), as
// lsof +L1 does, for at most budget: a host with many processes and
// descriptors gets a partial answer rather than a slow one.
func (h *Host) FindDeletedOpen(devs []string, budget time.Duration) map[string]*DeletedOpen {
	type file struct {
		dev    string
		bytes  uint64
		holder string
	}
	want := map[string]bool{}
	out := map[string]*DeletedOpen{}
	for _, d := range devs {
		want[d] = true
		out[d] = &DeletedOpen{Holders: []string{}}
	}
	seen := map[[2]uint64]bool{}
	var files []file
	partial := h.eachFD(budget, func(pid int, link, target string) bool {
		if !strings.HasPrefix(target, "/") || !strings.HasSuffix(target, " (deleted)") {
			return true
		}
		var st syscall.Stat_t
		if syscall.Stat(link, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return true
		}
		dev := fmt.Sprintf("%d:%d", unix.Major(st.Dev), unix.Minor(st.Dev))
		key := [2]uint64{st.Dev, st.Ino}
		if want[dev] && !seen[key] {
			seen[key] = true
			bytes := uint64(st.Blocks) * 512
			files = append(files, file{dev, bytes, fmt.Sprintf("pid %d (%s) %s, %s", pid, h.comm(pid), target, figures.IEC(bytes))})
		}
		return true
	})
	slices.SortFunc(files, func(a, b file) int { return cmp.Compare(b.bytes, a.bytes) })
	for _, f := range files {
		d := out[f.dev]
		d.Bytes += f.bytes
		d.Files++
		if len(d.Holders) < deletedHolders {
			d.Holders = append(d.Holders, f.holder)
		}
	}
	for _, d := range out {
		d.Partial = partial
	}
	return out
}

// comm is a process's name, or "?" once it has exited.
func (h *Host) comm(pid int) string {
	c, err := h.Comm(pid)
	if err != nil {
		return "?"
	}
	return c
}
