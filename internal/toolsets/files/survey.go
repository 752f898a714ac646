package files

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io/fs"
	"math"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// survey is what a delete or a move would affect, worked out before
// anything changes: the entry at a path and, for a directory, everything
// below it on its file system. Its state digests every entry's name,
// type, size and modification time, so a file added, removed or written
// between the question and a person's yes is seen.
type survey struct {
	isDir   bool
	entries int64 // the path itself included
	files   int64 // regular files
	dirs    int64 // directories below the path
	bytes   int64 // of the regular files
	newest  time.Time
	mounts  []string // mount points met, relative to the path (. for itself)
	listed  []string // with list, the first dryRunShown entries below the path
	state   string
}

// surveyPath surveys loc, whose entry st describes; list keeps the
// entries' names for a dry run's answer.
func surveyPath(ctx context.Context, call *tool.Call, loc fsroot.Loc, st fs.FileInfo, list bool) (*survey, error) {
	s := &survey{isDir: st.IsDir(), entries: 1}
	h := sha256.New()
	s.add(h, ".", st)
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		fmt.Fprintf(h, "%d:%d\n", sys.Dev, sys.Ino)
	}
	mp, err := loc.IsMountPoint()
	if err != nil {
		return nil, err
	}
	if mp {
		s.mounts = []string{"."}
	} else if s.isDir {
		if err := s.walk(ctx, call, loc, h, list); err != nil {
			return nil, err
		}
	}
	s.state = hex.EncodeToString(h.Sum(nil))
	return s, nil
}

// walk adds the tree below loc on its file system, as a recursive delete
// would remove it, and the mount points it does not enter.
func (s *survey) walk(ctx context.Context, call *tool.Call, loc fsroot.Loc, h hash.Hash, list bool) error {
	fence, err := loc.Fence(false)
	if err != nil {
		return err
	}
	defer fence.Close()
	skipped := 0
	err = walk(ctx, fence, math.MaxInt, func(rel string, de fs.DirEntry, mount bool) error {
		if mount {
			return nil
		}
		s.entries++
		if info, err := de.Info(); err == nil {
			s.add(h, rel, info)
		} else {
			fmt.Fprintf(h, "%s\x00gone\n", rel)
		}
		if list && len(s.listed) < dryRunShown {
			s.listed = append(s.listed, fsroot.ShowName(rel))
		}
		return nil
	}, &skipped)
	if err != nil {
		return err
	}
	if skipped > 0 {
		call.Warn("%d directories could not be read; the counts are lower bounds", skipped)
		fmt.Fprintf(h, "skipped %d\n", skipped)
	}
	for _, m := range fence.Skipped() {
		s.mounts = append(s.mounts, fsroot.ShowName(m))
	}
	return nil
}

// add counts one entry and digests it.
func (s *survey) add(h hash.Hash, rel string, info fs.FileInfo) {
	switch {
	case info.Mode().IsRegular():
		s.files++
		s.bytes += info.Size()
	case info.IsDir() && rel != ".":
		s.dirs++
	}
	if info.ModTime().After(s.newest) {
		s.newest = info.ModTime()
	}
	fmt.Fprintf(h, "%s\x00%v\x00%d\x00%d\n", rel, info.Mode().Type(), info.Size(), info.ModTime().UnixNano())
}

// what names the entry and what it holds, as a person reads it: "the
// file /srv/a.log (12.0 KiB, changed 3 min ago)", "/srv/cache and
// everything in it: 1,234 files, 56 directories, 56.0 MiB, newest
// changed 3 min ago".
func (s *survey) what(abs string, st fs.FileInfo, now time.Time) string {
	name := fmt.Sprintf("%q", tool.Clip(abs))
	switch {
	case st.Mode().IsRegular():
		return fmt.Sprintf("the file %s (%s, changed %s ago)", name, figures.IEC(uint64(st.Size())), figures.Span(now.Sub(st.ModTime())))
	case st.Mode()&fs.ModeSymlink != 0:
		return fmt.Sprintf("the symbolic link %s (not what it points to)", name)
	case !s.isDir:
		return fmt.Sprintf("the %s %s", fsroot.TypeOf(st.Mode()).Word(), name)
	case s.entries == 1:
		return fmt.Sprintf("the empty directory %s", name)
	}
	out := fmt.Sprintf("%s and everything in it: %s, %s", name, figures.Counted(s.files, "file", "files"), figures.Counted(s.dirs, "directory", "directories"))
	if other := s.entries - 1 - s.files - s.dirs; other > 0 {
		out += ", " + figures.Counted(other, "other entry", "other entries")
	}
	return out + fmt.Sprintf(", %s, newest changed %s ago", figures.IEC(uint64(s.bytes)), figures.Span(now.Sub(s.newest)))
}
