package fsroot

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Change is one file of a transaction.
type Change struct {
	Loc Loc
	// Content is the file's new content; unused by a removal.
	Content []byte
	// Remove deletes the file (a deletion, or the old name of a rename).
	Remove bool
	// OldSHA256 is the hex SHA-256 of the content the change was worked
	// out from: if the file holds anything else, nothing is written. Empty
	// means the file must not exist (a creation).
	OldSHA256 string
	// Mode is a created file's permission bits (0644 when zero); a
	// replaced file keeps its own mode and owner.
	Mode fs.FileMode
}

// Apply makes every change or none, across a crash of the process too.
// Every file's new content is staged beside it (synced) and its old
// content kept under a second name (a hard link) before the commit point
// is written to the journal; only then are the files renamed over and
// removed. A failure before the commit point removes what was staged; one
// after it puts the kept contents back. A crash anywhere is finished or
// undone by Recover at the next start. What is never undone: parent
// directories created for new files stay, empty.
func (j *Journal) Apply(changes []Change) error {
	if len(changes) == 0 {
		return nil
	}
	in, err := newIntent(changes)
	if err != nil {
		return err
	}
	jf, err := j.create(in)
	if err != nil {
		return journalError("writing the journal", err)
	}
	defer jf.close()
	t := &txn{j: j, entries: in.Entries, sites: make([]*site, len(changes))}
	defer t.close()
	j.step("journaled")
	if err := t.stage(changes); err != nil {
		return t.abandon(jf, err, false)
	}
	if err := jf.mark(markCommit); err != nil {
		return t.abandon(jf, journalError("writing the journal's commit point", err), false)
	}
	j.step("committed")
	for i := range t.entries {
		if err := t.forward(i, false); err != nil {
			_ = jf.mark(markAbort) // if this fails, recovery still finds it cannot go forward
			return t.abandon(jf, err, true)
		}
		j.step(fmt.Sprintf("forward %d", i))
	}
	if err := t.finish(); err != nil {
		return nil // every file is changed; the next start removes what is left
	}
	_ = jf.remove() // the same
	return nil
}

// idBytes is the size of a transaction's random id.
const idBytes = 8

// newIntent checks the changes and names each file's staged and kept
// copies: the target's temporary name with the transaction's id and the
// change's index, so two files of one directory never share one.
func newIntent(changes []Change) (intent, error) {
	var id [idBytes]byte
	_, _ = rand.Read(id[:])
	in := intent{Version: 1, ID: hex.EncodeToString(id[:])}
	seen := map[string]bool{}
	for i, c := range changes {
		l := c.Loc
		if err := l.Writable(); err != nil {
			return intent{}, err
		}
		if l.IsRoot() {
			return intent{}, tool.Errorf(tool.IsDirectory, "%q is a root directory", tool.Clip(l.Given))
		}
		if !utf8.ValidString(l.Root.Path) || !utf8.ValidString(l.Rel) {
			// JSON would write U+FFFD for the odd bytes: the journal must name
			// each file exactly, or recovery would miss it.
			return intent{}, tool.Errorf(tool.InvalidPath, "%q is not valid UTF-8; fs_apply_diff changes only files it can name exactly in its journal", tool.Clip(l.Given)).
				WithSuggestion("Change this file by itself with fs_patch_block or fs_write.")
		}
		if seen[l.Abs()] {
			return intent{}, tool.Errorf(tool.InvalidArgument, "%q is changed twice in one transaction; nothing was written", tool.Clip(l.Given)).
				WithSuggestion("Change each file once: merge its changes into one.")
		}
		seen[l.Abs()] = true
		st, err := l.Root.OS().Stat(".")
		if err != nil {
			return intent{}, pathError("inspecting the root of", l.Given, err)
		}
		sys, _ := st.Sys().(*syscall.Stat_t)
		if sys == nil {
			return intent{}, tool.Errorf(tool.Internal, "no device and inode for the root %s", l.Root.Path)
		}
		prefix := fmt.Sprintf("%s-%s-%d", tempName(path.Base(l.Rel), false), in.ID, i)
		e := entry{Root: l.Root.Path, RootDev: uint64(sys.Dev), RootIno: uint64(sys.Ino), Rel: l.Rel, Remove: c.Remove, OldSHA: c.OldSHA256}
		if c.OldSHA256 != "" {
			e.Kept = prefix + "o"
		}
		if !c.Remove {
			sum := sha256.Sum256(c.Content)
			e.Staged, e.NewSHA = prefix+"n", hex.EncodeToString(sum[:])
		}
		if err := e.validate(); err != nil {
			return intent{}, tool.Wrap(tool.InvalidArgument, err, "change of %q: %v", tool.Clip(l.Given), err)
		}
		in.Entries = append(in.Entries, e)
	}
	return in, nil
}

// txn is a transaction at work, live or in recovery: its entries and each
// entry's open site.
type txn struct {
	j       *Journal
	entries []entry
	sites   []*site
}

func (t *txn) close() {
	for _, s := range t.sites {
		s.close()
	}
}

// stage checks each file, keeps its old content and stages its new one,
// then makes the new names durable: all before the commit point.
func (t *txn) stage(changes []Change) error {
	seen := map[fileKey]string{}
	for i, c := range changes {
		e := t.entries[i]
		s, err := openSite(c.Loc, !c.Remove)
		if err != nil {
			return err
		}
		t.sites[i] = s
		// One file by two spellings (a link on the path) is one file.
		k, err := s.key()
		if err != nil {
			return err
		}
		if other, dup := seen[k]; dup {
			return tool.Errorf(tool.InvalidArgument, "%q and %q are one file, changed twice in one transaction", tool.Clip(other), tool.Clip(c.Loc.Given)).
				WithSuggestion("Change each file once, under one name.")
		}
		seen[k] = c.Loc.Given
		old, err := s.checkTarget(e.OldSHA != "", !c.Remove)
		if err != nil {
			return err
		}
		mode := c.Mode
		if mode == 0 {
			mode = 0o644
		}
		if old != nil {
			m := fileMode(old.Mode)
			mode = m.Perm() | m&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
			if err := s.keep(e.Kept, e.OldSHA); err != nil {
				return err
			}
			t.j.step(fmt.Sprintf("kept %d", i))
		}
		if !c.Remove {
			if err := s.stage(e.Staged, c.Content, mode, old); err != nil {
				return err
			}
			t.j.step(fmt.Sprintf("staged %d", i))
		}
	}
	return t.syncAll()
}

// abandon undoes a failed transaction (back, in reverse) and reports err;
// touched says whether it failed after the commit point. If undoing fails
// too, the journal stays for the next start to retry.
func (t *txn) abandon(jf *journalFile, err error, touched bool) error {
	var berr error
	for i := len(t.entries) - 1; i >= 0; i-- {
		if t.sites[i] == nil {
			continue // never reached: nothing of it exists
		}
		if e := t.back(i, touched, false); e != nil && berr == nil {
			berr = e
		}
		t.j.step(fmt.Sprintf("back %d", i))
	}
	if berr == nil {
		berr = t.syncAll()
	}
	if berr != nil {
		return tool.Wrap(tool.WriteFailed, err, "%s; and undoing the files already changed failed too (%s): hostmcp retries when it next starts", tool.AsError(err).Message, tool.AsError(berr).Message).
			WithSuggestion("Ask the operator to restart hostmcp, which finishes or undoes the change; then read the files (fs_read).")
	}
	_ = jf.remove()
	te := *tool.AsError(err)
	switch {
	case touched:
		te.Message += "; every file was put back as it was"
	case !strings.Contains(te.Message, "nothing was written"):
		te.Message += "; nothing was written"
	}
	return &te
}

// journalError is a failure in the journal's directory, told without its
// path: the state directory lies outside the roots.
func journalError(what string, err error) *tool.Error {
	reason := "failed"
	var errno syscall.Errno
	if errors.As(err, &errno) {
		reason = errno.Error()
	}
	return tool.Wrap(tool.WriteFailed, err, "%s in the state directory: %s; nothing was written", what, reason).
		WithSuggestion("Ask the operator to check the state directory (space, permissions), then retry.")
}

// finish, once every entry is forward, makes that durable and removes the
// kept old contents.
func (t *txn) finish() error {
	if err := t.syncAll(); err != nil {
		return err
	}
	for i, e := range t.entries {
		if err := t.sites[i].unlink(e.Kept); err != nil {
			return err
		}
		t.j.step(fmt.Sprintf("dropped %d", i))
	}
	return t.syncAll()
}

func (t *txn) syncAll() error {
	for _, s := range t.sites {
		if err := s.sync(); err != nil {
			return err
		}
	}
	return nil
}
