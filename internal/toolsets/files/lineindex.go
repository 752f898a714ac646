package files

import (
	"bytes"
	"container/list"
	"errors"
	"io"
	"io/fs"
	"slices"
	"sort"
	"sync"
	"syscall"
	"time"
)

// Bounds of the line indexes fs_read keeps for files too large to hold
// (over handleMaxBytes), so that a window deep in one is read from near
// where it starts instead of from the top, and the lines after it are not
// counted again.
const (
	// maxMarks bounds one index: its marks are spread at least markBytes
	// apart, wider in a larger file, so that an index takes at most
	// about 16 KiB whatever the file's size or line count.
	maxMarks  = 1024
	markBytes = 16 << 10
	// lineIndexBudget bounds all indexes together; the least recently
	// used go first.
	lineIndexBudget = 1 << 20
	// settleTime: a file changed this recently is not indexed for later
	// reads, since a change within the same timestamp tick as its last
	// one, leaving the size alone, would not change its key.
	settleTime = 2 * time.Second
)

// errStaleIndex says an index did not match the bytes it was used on.
var errStaleIndex = errors.New("line index does not match the file")

// fileVersion identifies one version of a file: the same inode with the
// same size, modification and change times. A write changes the times
// (the change time cannot be set back by utimes), a truncate or an append
// the size, a replacement by rename the inode.
type fileVersion struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

func versionOf(st fs.FileInfo) (fileVersion, time.Time, bool) {
	sys, ok := st.Sys().(*syscall.Stat_t)
	if !ok {
		return fileVersion{}, time.Time{}, false
	}
	ctime := time.Unix(sys.Ctim.Unix())
	return fileVersion{
		dev: sys.Dev, ino: sys.Ino, size: sys.Size,
		mtime: time.Unix(sys.Mtim.Unix()).UnixNano(), ctime: ctime.UnixNano(),
	}, ctime, true
}

// lineIndex is a sparse index of one file version's lines: its line count
// and, about every markBytes, where a line starts and its number.
type lineIndex struct {
	version fileVersion
	lines   int
	marks   []lineMark
}

// lineMark says that line (0-based) starts at byte off.
type lineMark struct {
	line int
	off  int64
}

// bytes is what the index takes in memory, roughly.
func (x *lineIndex) bytes() int { return 96 + 16*cap(x.marks) }

// markBefore returns the last mark at or before line n (line 0 at byte 0
// when there is none).
func (x *lineIndex) markBefore(n int) lineMark {
	i := sort.Search(len(x.marks), func(i int) bool { return x.marks[i].line > n })
	if i == 0 {
		return lineMark{}
	}
	return x.marks[i-1]
}

// markAfter returns the first mark at or after line n, and false when
// there is none: the lines before n all end by its offset.
func (x *lineIndex) markAfter(n int) (lineMark, bool) {
	i := sort.Search(len(x.marks), func(i int) bool { return x.marks[i].line >= n })
	if i == len(x.marks) {
		return lineMark{}, false
	}
	return x.marks[i], true
}

// buildLineIndex reads the whole file once, in blocks, to count its lines
// (an unterminated last line counts) and mark where lines start.
func buildLineIndex(ra io.ReaderAt, size int64) (*lineIndex, error) {
	gap := max(markBytes, size/maxMarks+1)
	x := &lineIndex{}
	buf := make([]byte, scanBlock)
	next := gap // the next mark is the first line starting at or after next
	newlines := 0
	for pos := int64(0); pos < size; {
		k, err := ra.ReadAt(buf[:min(int64(len(buf)), size-pos)], pos)
		if k == 0 && err != nil {
			if err == io.EOF {
				err = errStaleIndex // shorter than its size: it changed
			}
			return nil, err
		}
		b := buf[:k]
		for i := 0; i < len(b); {
			from := max(i, int(next-1-pos)) // a '\n' at next-1 or later
			if from >= len(b) {
				newlines += bytes.Count(b[i:], []byte{'\n'})
				break
			}
			newlines += bytes.Count(b[i:from], []byte{'\n'})
			j := bytes.IndexByte(b[from:], '\n')
			if j < 0 { // no line ends between from and the block's end
				break
			}
			at := from + j
			newlines++
			if start := pos + int64(at) + 1; start < size {
				x.marks = append(x.marks, lineMark{line: newlines, off: start})
				next = start + gap
			}
			i = at + 1
		}
		pos += int64(k)
	}
	x.lines = newlines
	x.marks = slices.Clip(x.marks) // bytes counts its capacity
	if size > 0 && lastByte(ra, size) != '\n' {
		x.lines++
	}
	return x, nil
}

// lineIndexCache keeps the indexes of the files read most recently, by
// device and inode, at most budget bytes of them. An index is used only for
// the very version it was built from, and dropped as soon as a read finds
// the file changed.
type lineIndexCache struct {
	budget int
	now    func() time.Time

	mu   sync.Mutex
	used int
	lru  list.List // of *lineIndex, most recently used first
	byID map[[2]uint64]*list.Element
}

func newLineIndexCache(budget int) *lineIndexCache {
	return &lineIndexCache{budget: budget, now: time.Now, byID: map[[2]uint64]*list.Element{}}
}

// get returns the index of this version of the file, or nil; an index of
// another version of it is dropped.
func (c *lineIndexCache) get(v fileVersion) *lineIndex {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[[2]uint64{v.dev, v.ino}]
	if !ok {
		return nil
	}
	x := e.Value.(*lineIndex)
	if x.version != v {
		c.remove(e)
		return nil
	}
	c.lru.MoveToFront(e)
	return x
}

// put keeps x, making room by dropping the least recently used.
func (c *lineIndexCache) put(x *lineIndex) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if x.bytes() > c.budget {
		return
	}
	if e, ok := c.byID[[2]uint64{x.version.dev, x.version.ino}]; ok {
		c.remove(e)
	}
	for c.used+x.bytes() > c.budget {
		c.remove(c.lru.Back())
	}
	c.byID[[2]uint64{x.version.dev, x.version.ino}] = c.lru.PushFront(x)
	c.used += x.bytes()
}

// drop forgets the index of this file, whatever its version.
func (c *lineIndexCache) drop(v fileVersion) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[[2]uint64{v.dev, v.ino}]; ok {
		c.remove(e)
	}
}

// remove unlinks e. c.mu is held.
func (c *lineIndexCache) remove(e *list.Element) {
	x := c.lru.Remove(e).(*lineIndex)
	delete(c.byID, [2]uint64{x.version.dev, x.version.ino})
	c.used -= x.bytes()
}

// window reads a window of the open file f (st its Stat) as readWindow
// does, through its index: the cached one when it is of this version,
// else one built now, with an exact total_lines. The index is kept for
// later reads unless the file changed within settleTime.
func (c *lineIndexCache) window(f io.ReaderAt, st fs.FileInfo, offset, limit, budget int) (window, error) {
	size := st.Size()
	v, ctime, ok := versionOf(st)
	if !ok {
		return readWindow(f, size, offset, limit, budget)
	}
	if x := c.get(v); x != nil {
		w, err := readIndexedWindow(f, size, x, offset, limit, budget)
		if !errors.Is(err, errStaleIndex) {
			return w, err
		}
		c.drop(v)
	}
	x, err := buildLineIndex(f, size)
	if errors.Is(err, errStaleIndex) {
		return readWindow(f, size, offset, limit, budget)
	}
	if err != nil {
		return window{}, err
	}
	x.version = v
	w, err := readIndexedWindow(f, size, x, offset, limit, budget)
	if errors.Is(err, errStaleIndex) { // it changed while being read
		return readWindow(f, size, offset, limit, budget)
	}
	if err == nil && c.now().Sub(ctime) >= settleTime {
		c.put(x)
	}
	return w, err
}
