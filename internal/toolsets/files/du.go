package files

import (
	"cmp"
	"context"
	"io/fs"
	"slices"
	"strings"
	"syscall"
	"time"
)

// sizer totals disk usage under the listed directories as du -x does:
// allocated blocks (so a sparse file counts what it holds, and /proc
// nothing), a hard-linked file once, directories' own blocks included. The
// walk keeps it off other file systems (the question it answers is what
// fills this one) unless crossing mounts was asked for, as du without -x.
type sizer struct {
	depth   int                // directories up to this level are listed
	seen    map[[2]uint64]bool // dev and inode of hard-linked files counted
	totals  map[string]*usage  // by listed directory; "" is the listed one
	stopAt  time.Time          // when the walk gives up, its totals lower bounds
	stopped bool
}

type usage struct {
	bytes int64
	files int
}

// newSizer sizes the tree under a directory whose stat is root. The walk
// stops a little before ctx's deadline so that what it found is returned
// rather than lost to a timeout.
func newSizer(ctx context.Context, depth int, root fs.FileInfo) *sizer {
	z := &sizer{depth: depth, seen: map[[2]uint64]bool{}, totals: map[string]*usage{"": {}}}
	if st, ok := root.Sys().(*syscall.Stat_t); ok {
		z.totals[""].bytes = st.Blocks * 512
	}
	if dl, ok := ctx.Deadline(); ok {
		z.stopAt = dl.Add(-max(time.Until(dl)/5, time.Second))
	}
	return z
}

// add counts one entry of the walk and returns the disk space the entry
// itself takes; its error is fs.SkipAll once time is up.
func (z *sizer) add(rel string, de fs.DirEntry) (int64, error) {
	if !z.stopAt.IsZero() && time.Now().After(z.stopAt) {
		z.stopped = true
		return 0, fs.SkipAll
	}
	info, err := de.Info()
	if err != nil {
		return 0, nil // removed during the walk
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, nil
	}
	if st.Nlink > 1 && !de.IsDir() {
		key := [2]uint64{st.Dev, st.Ino}
		if z.seen[key] {
			return 0, nil
		}
		z.seen[key] = true
	}
	n := usage{bytes: st.Blocks * 512}
	if de.Type().IsRegular() {
		n.files = 1
	}
	if de.IsDir() && strings.Count(rel, "/") <= z.depth {
		z.totals[rel] = &usage{}
	}
	// The listed directory, every listed directory on the way down, and
	// rel itself when it is one. Only listed ones are in totals.
	z.totals[""].add(n)
	level := 0
	for i := 0; i <= len(rel) && level <= z.depth; i++ {
		if i < len(rel) && rel[i] != '/' {
			continue
		}
		if u, ok := z.totals[rel[:i]]; ok {
			u.add(n)
		}
		level++
	}
	return n.bytes, nil
}

func (u *usage) add(n usage) {
	u.bytes += n.bytes
	u.files += n.files
}

// sizeSummary is the listed directory's own total.
type sizeSummary struct {
	bytes   *int64
	files   *int
	partial bool
}

// fill sets the totals of the listed directories and returns the listed
// directory's.
func (z *sizer) fill(entries []entry) sizeSummary {
	for i := range entries {
		if u, ok := z.totals[entries[i].rel]; ok && entries[i].dir {
			entries[i].DuBytes, entries[i].DuFiles = &u.bytes, &u.files
		}
	}
	u := z.totals[""]
	return sizeSummary{bytes: &u.bytes, files: &u.files, partial: z.stopped}
}

// sortBySize orders entries largest first (du_bytes when sized, else
// size_bytes), then by path.
func sortBySize(entries []entry) {
	size := func(e entry) int64 {
		if e.DuBytes != nil {
			return *e.DuBytes
		}
		if e.SizeBytes != nil {
			return *e.SizeBytes
		}
		return 0
	}
	slices.SortStableFunc(entries, func(a, b entry) int {
		return cmp.Or(cmp.Compare(size(b), size(a)), strings.Compare(a.rel, b.rel))
	})
}

// hiddenBelow reports whether rel lies inside a hidden directory that the
// listing leaves out (with dir_sizes the walk enters it only to size it).
func hiddenBelow(rel string, includeHidden bool) bool {
	for !includeHidden {
		dir, rest, ok := strings.Cut(rel, "/")
		if !ok {
			return false
		}
		if strings.HasPrefix(dir, ".") {
			return true
		}
		rel = rest
	}
	return false
}

// infoOnce is a DirEntry whose Info (an lstat on every call, for entries
// ReadDir returns) is read once and shared by the sizer and the listing.
type infoOnce struct {
	fs.DirEntry
	info fs.FileInfo
	err  error
	done bool
}

func (e *infoOnce) Info() (fs.FileInfo, error) {
	if !e.done {
		e.info, e.err = e.DirEntry.Info()
		e.done = true
	}
	return e.info, e.err
}
