package edit

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// commit carries out a checked plan as one journaled transaction
// (fsroot.Journal.Apply): backups, new contents and removals (deleted files
// and rename sources) are all made or none, across a crash of hostmcp too.
// A file changed since the plan read it stops the whole plan.
func commit(j *fsroot.Journal, plan []*change, backup bool) error {
	var changes []fsroot.Change
	for _, c := range plan {
		if !backup || c.oldLoc == nil {
			continue
		}
		name, err := backupName(*c.oldLoc)
		if err != nil {
			return err
		}
		c.res.Backup = name
		changes = append(changes, fsroot.Change{Loc: c.oldLoc.Sibling(name), Content: c.old, Mode: c.oldMode})
	}
	for _, c := range plan {
		modified := c.res.Action == "modified"
		if c.newLoc != nil {
			ch := fsroot.Change{Loc: *c.newLoc, Content: c.newBytes, Mode: c.oldMode}
			if modified {
				ch.OldSHA256 = c.oldSum
			}
			changes = append(changes, ch)
			c.res.NewSHA256 = shaHex(c.newBytes)
		}
		if c.oldLoc != nil && !modified {
			changes = append(changes, fsroot.Change{Loc: *c.oldLoc, Remove: true, OldSHA256: c.oldSum})
		}
	}
	return j.Apply(changes)
}

// backupName is the first free name of NAME.orig, NAME.orig.1, ... beside l.
func backupName(l fsroot.Loc) (string, error) {
	base := l.Base() + ".orig"
	for i := range 100 {
		name := base
		if i > 0 {
			name = fmt.Sprintf("%s.%d", base, i)
		}
		if _, err := l.Sibling(name).Lstat(); err != nil {
			return name, nil
		}
	}
	return "", tool.Errorf(tool.AlreadyExists, "%s: 100 backups exist already", tool.Clip(l.Given)).
		WithSuggestion("Remove old NAME.orig.N backups, or apply without backup.")
}
