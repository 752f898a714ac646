package search

import (
	"io/fs"
	"os"
	"strings"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// close releases what prepare opened.
func (r *searchReq) close() { r.fence.Close() }

// open opens a file found below the search root (by either engine) through
// the root, as a regular file that does not block, and only when it lies
// on the root's mount or crossing was asked for: a mount that appeared on a
// directory after the walk passed it is still not read.
func (r *searchReq) open(rel string) (*os.File, fs.FileInfo, error) {
	f, st, err := openFile(r.loc.Root.OS(), join(r.loc.Rel, rel))
	if err != nil {
		return nil, nil, err
	}
	if !r.fence.Admits(f) {
		f.Close()
		return nil, nil, fs.ErrPermission
	}
	return f, st, nil
}

// flatBelow reports whether nothing but the root's own file system lies
// below the search root: no mount point below it in the server's mount
// table, on a file system type that changes devices only where something
// is mounted (fsroot.Fence.SingleDeviceFS). There rg's --one-file-system
// changes nothing it walks and costs it a look at every directory's
// device: 1.6 of a 28 ms search_files over GOROOT/src, 1.2 of 98 ms for
// content. Either way the fence drops every file rg reports from another
// mount or device (fsroot.Reported), so a mount made during the walk is
// not shown from, only walked by rg, which Landlock still keeps below the
// root. When the table cannot be read, it reports false.
func (r *searchReq) flatBelow() bool {
	if !r.fence.SingleDeviceFS() {
		return false
	}
	mps, err := r.mounts.mountPoints()
	return err == nil && len(r.fence.MountsBelow(mps)) == 0
}

// rgOptions are the walk settings for rg, flat worked out.
func (r *searchReq) rgOptions() *options {
	if !r.opt.cross {
		r.opt.flat = r.flatBelow()
	}
	return &r.opt
}

// warnMounts names the mount points the search left out. The native walker
// records those it met; rg's --one-file-system skips them silently, so for
// rg they are the mount points the kernel lists below the search root.
func (r *searchReq) warnMounts(call *tool.Call, engine string) {
	if r.opt.cross {
		return
	}
	if engine == "rg" {
		if mps, err := r.mounts.mountPoints(); err == nil {
			for _, m := range r.fence.MountsBelow(mps) {
				if r.opt.hidden || !hiddenPath(m) { // rg never looks there
					r.fence.Skip(m)
				}
			}
		}
	}
	if w := r.fence.Warning(); w != "" {
		call.Warn("%s", w)
	}
}

// hiddenPath reports whether a path has a component starting with a dot.
func hiddenPath(rel string) bool {
	return strings.HasPrefix(rel, ".") || strings.Contains(rel, "/.")
}
