package edit

import (
	"fmt"
	"io/fs"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// undo puts one committed step back.
type undo func() error

// commit carries out a checked plan: backups first, then every new content
// (each an atomic replace that still requires the content the plan read),
// then removals (deleted files and rename sources). If any step fails, the
// steps done are undone in reverse, so the files end as they began.
func commit(plan []*change, backup bool) error {
	var done []undo
	fail := func(err error) error {
		for i := len(done) - 1; i >= 0; i-- {
			if uerr := done[i](); uerr != nil {
				return tool.Wrap(tool.WriteFailed, err, "%v; and undoing the files already changed failed too: %v", err, uerr).
					WithSuggestion("Check the files named with fs_read; backups, if asked for, are beside them as NAME.orig.")
			}
		}
		return err
	}
	for _, c := range plan {
		if backup && c.oldLoc != nil {
			name, err := writeBackup(*c.oldLoc, c.old, c.oldMode)
			if err != nil {
				return fail(err)
			}
			c.res.Backup = name
			loc := c.oldLoc.Sibling(name)
			done = append(done, func() error { return removeFile(loc) })
		}
	}
	for _, c := range plan {
		if c.newLoc == nil {
			continue
		}
		o := fsroot.WriteOptions{CreateParents: true, Mode: c.oldMode}
		if c.res.Action == "modified" {
			o.ExpectedSHA256 = c.oldSum // changed since the plan read it: stop
		}
		res, err := c.newLoc.Write(c.newBytes, o)
		if err != nil {
			return fail(err)
		}
		c.res.NewSHA256 = res.NewSHA256
		loc, old, mode, created := *c.newLoc, c.old, c.oldMode, c.res.Action != "modified"
		done = append(done, func() error {
			if created {
				return removeFile(loc)
			}
			_, err := loc.Write(old, fsroot.WriteOptions{Mode: mode})
			return err
		})
	}
	for _, c := range plan {
		if c.oldLoc == nil || c.res.Action == "modified" {
			continue
		}
		if err := removeFile(*c.oldLoc); err != nil {
			return fail(err)
		}
		loc, old, mode := *c.oldLoc, c.old, c.oldMode
		done = append(done, func() error {
			_, err := loc.Write(old, fsroot.WriteOptions{Mode: mode, CreateParents: true})
			return err
		})
	}
	return nil
}

// writeBackup writes content beside l as NAME.orig, or NAME.orig.N when
// taken, and returns the backup's name.
func writeBackup(l fsroot.Loc, content []byte, mode fs.FileMode) (string, error) {
	base := l.Base() + ".orig"
	for i := 0; i < 100; i++ {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s.%d", base, i)
		}
		b := l.Sibling(name)
		if _, err := b.Lstat(); err == nil {
			continue
		}
		if _, err := b.Write(content, fsroot.WriteOptions{Mode: mode}); err != nil {
			return "", err
		}
		return name, nil
	}
	return "", tool.Errorf(tool.AlreadyExists, "%s: 100 backups exist already", tool.Clip(l.Given)).
		WithSuggestion("Remove old NAME.orig.N backups, or apply without backup.")
}

func removeFile(l fsroot.Loc) error { return l.RemoveFile() }
