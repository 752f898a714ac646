package files

import (
	"context"
	"io/fs"
	"math"
	"path"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// walkCap bounds the entries a listing (or a dry run) collects for its
// handle; the walk stops there and says so.
const walkCap = 100_000

type listIn struct {
	Path          string `json:"path,omitempty" jsonschema:"directory (default: the first root)"`
	Depth         *int   `json:"depth,omitempty" jsonschema:"levels below path (0: its entries)" default:"2"`
	IncludeHidden bool   `json:"include_hidden,omitempty"`
	FileGlob      string `json:"file_glob,omitempty" jsonschema:"only files matching, e.g. *.go"`
	MaxEntries    int    `json:"max_entries,omitempty" jsonschema:"all go to a handle" default:"500"`
	DirSizes      bool   `json:"dir_sizes,omitempty" jsonschema:"disk use of each directory, like du -x"`
	CrossMounts   bool   `json:"cross_mounts,omitempty" jsonschema:"enter mounted file systems"`
	Sort          string `json:"sort,omitempty" jsonschema:"name: tree order; size: largest first" default:"name"`
	Mtime         bool   `json:"mtime,omitempty" jsonschema:"add each entry's mtime_iso"`
}

// entry is one listed file system object. It says what an agent finding
// its way needs, in about 40 bytes: a directory by the slash that ends its
// path, a file by its size, anything else by its type; the rest is asked
// for (mtime, dir_sizes).
type entry struct {
	Path       string `json:"path" jsonschema:"relative to the listed directory; a directory's ends in /"`
	Type       string `json:"type,omitempty" jsonschema:"symlink, fifo, socket, device or other; absent for files and directories"`
	SizeBytes  *int64 `json:"size_bytes,omitempty" jsonschema:"a file's size; files only"`
	MtimeISO   string `json:"mtime_iso,omitempty" jsonschema:"with mtime: last modification, RFC 3339, UTC"`
	LinkTarget string `json:"link_target,omitempty" jsonschema:"a symlink's target, shown only when it stays inside the root"`
	DuBytes    *int64 `json:"du_bytes,omitempty" jsonschema:"with dir_sizes: disk space used, a directory's whole tree or a file's allocated blocks"`
	DuFiles    *int   `json:"du_files,omitempty" jsonschema:"with dir_sizes, for a directory: regular files in its tree"`
	MountPoint bool   `json:"mount_point,omitempty" jsonschema:"a directory where another file system is mounted, not entered (pass cross_mounts: true to enter it)"`

	rel string // the path as walked: no escapes, no slash
	dir bool
}

type listOut struct {
	Dir          string  `json:"dir" jsonschema:"absolute path listed"`
	Entries      []entry `json:"entries"`
	TotalEntries int     `json:"total_entries" jsonschema:"entries found (a lower bound when complete is false)"`
	Truncated    bool    `json:"truncated,omitempty" jsonschema:"true when entries beyond max_entries are left out (the handle has them)"`
	Complete     bool    `json:"complete" jsonschema:"false when the walk stopped early: at 100000 entries, or out of time with dir_sizes"`
	Handle       string  `json:"handle,omitempty" jsonschema:"every entry found, one JSON object per line, for handle_read"`
	DuBytes      *int64  `json:"du_bytes,omitempty" jsonschema:"with dir_sizes: disk space used under path on its file system"`
	DuFiles      *int    `json:"du_files,omitempty" jsonschema:"with dir_sizes: regular files under path"`
	SizesPartial bool    `json:"sizes_partial,omitempty" jsonschema:"with dir_sizes: the walk ran out of time, so sizes are lower bounds"`
}

func (s *Set) list() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_list",
		Kind:        tool.ReadOnly,
		Title:       "List a directory tree",
		Description: "List a directory tree with sizes (mtime on request); dir_sizes and sort size show what fills a disk.",
	}, s.handleList).WithRange("depth", 0, 10).WithRange("max_entries", 0, 5000).WithEnum("sort", "name", "size").
		WithAlias("max_results", "max_entries")
}

func (s *Set) handleList(ctx context.Context, call *tool.Call, in listIn) (listOut, error) {
	depth := 2
	if in.Depth != nil {
		depth = *in.Depth
	}
	if in.MaxEntries == 0 {
		in.MaxEntries = 500
	}
	if in.FileGlob != "" {
		if _, err := path.Match(in.FileGlob, ""); err != nil {
			return listOut{}, tool.Errorf(tool.InvalidArgument, "file_glob %q is not a valid glob: %v", tool.Clip(in.FileGlob), err)
		}
	}
	if in.Path == "" {
		in.Path = "."
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return listOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return listOut{}, err
	}
	fence, err := loc.Fence(in.CrossMounts)
	if err != nil {
		return listOut{}, err
	}
	defer fence.Close()
	dirInfo, err := fence.Stat()
	if err != nil {
		return listOut{}, tool.Wrap(tool.ExecutionFailed, err, "%s: %s", tool.Clip(in.Path), tool.Clip(err.Error()))
	}
	var all []entry
	var z *sizer
	walkDepth := depth
	if in.DirSizes {
		z = newSizer(ctx, depth, dirInfo)
		walkDepth = math.MaxInt // sizes need the whole tree; only depth is listed
	}
	capped := false
	skipped := 0
	err = walk(ctx, fence, walkDepth, func(rel string, de fs.DirEntry, mount bool) error {
		var du int64
		if z != nil && !mount {
			de = &infoOnce{DirEntry: de} // one lstat for the sizer and the listing
			var err error
			if du, err = z.add(rel, de); err != nil {
				return err
			}
		}
		if strings.Count(rel, "/") > depth || hiddenBelow(rel, in.IncludeHidden) {
			return nil // walked for sizes only
		}
		if !in.IncludeHidden && strings.HasPrefix(de.Name(), ".") {
			if de.IsDir() && z == nil {
				return fs.SkipDir
			}
			return nil
		}
		if in.FileGlob != "" && !de.IsDir() && !globMatch(in.FileGlob, rel, de.Name()) {
			return nil
		}
		if len(all) == walkCap {
			capped = true
			if z != nil {
				return nil // keep sizing
			}
			return fs.SkipAll
		}
		e := describe(loc, rel, de, in.Mtime)
		e.MountPoint = mount
		if z != nil && !de.IsDir() {
			e.DuBytes = &du
		}
		all = append(all, e)
		return nil
	}, &skipped)
	if err != nil {
		return listOut{}, err
	}
	var sizes sizeSummary
	if z != nil {
		sizes = z.fill(all)
		if z.stopped {
			call.Warn("the walk ran out of time: sizes are lower bounds and entries may be missing; list a subdirectory")
		}
	}
	if in.Sort == "size" {
		sortBySize(all)
	}
	if skipped > 0 {
		call.Warn("%d directories could not be read (permission denied or removed during the walk)", skipped)
	}
	if w := fence.Warning(); w != "" {
		call.Warn("%s", w)
	}
	out := listOut{Dir: loc.Abs(), Entries: all, TotalEntries: len(all), Complete: !capped && !sizes.partial,
		DuBytes: sizes.bytes, DuFiles: sizes.files, SizesPartial: sizes.partial}
	if capped {
		call.Warn("the walk stopped at %d entries; list a subdirectory or lower depth", walkCap)
	}
	if len(all) > in.MaxEntries {
		out.Entries, out.Truncated = all[:in.MaxEntries], true
		out.Handle = tool.PutLines(ctx, call, "fs_list", map[string]any{"kind": "fs_list", "path": loc.Abs(), "root": loc.Root.Path}, all, in.MaxEntries)
	}
	return out, nil
}

func describe(loc fsroot.Loc, rel string, de fs.DirEntry, mtime bool) entry {
	e := entry{Path: fsroot.ShowName(rel), rel: rel, dir: de.IsDir()}
	switch {
	case e.dir:
		e.Path += "/"
	case !de.Type().IsRegular():
		e.Type = fsroot.TypeOf(de.Type()).Word()
	}
	if info, err := de.Info(); err == nil {
		if de.Type().IsRegular() {
			size := info.Size()
			e.SizeBytes = &size
		}
		if mtime {
			e.MtimeISO = info.ModTime().UTC().Format(time.RFC3339)
		}
	}
	if de.Type()&fs.ModeSymlink != 0 {
		c := loc
		for _, part := range strings.Split(rel, "/") {
			c = c.Child(part)
		}
		e.LinkTarget = fsroot.ShowName(c.Readlink())
	}
	return e
}

// globMatch matches a glob against the base name, or against the relative
// path when the glob holds a slash.
func globMatch(glob, rel, name string) bool {
	target := name
	if strings.Contains(glob, "/") {
		target = rel
	}
	ok, _ := path.Match(glob, target)
	return ok
}
