package fsroot

import (
	"github.com/hostmcp/hostmcp/internal/tool"
)

// The two ways one entry of a transaction can go, shared by a live
// transaction and by recovery. Each reads the entry's state from the files
// themselves (which names exist, which are one file, which content they
// hold by SHA-256), so each is idempotent: a step cut short by a crash is
// taken again, a step already taken passes. With dry, nothing changes: the
// call only says whether the step can be taken, so that recovery chooses a
// direction every entry can go.

// forward puts the entry's new state in place: the staged copy renamed
// over the file, or the file removed. The file must still be the one the
// transaction kept (or, for a creation, still absent): anything else was
// changed by someone else and is not overwritten.
func (t *txn) forward(i int, dry bool) error {
	e, s := t.entries[i], t.sites[i]
	given := tool.Clip(s.loc.Given)
	if e.Remove {
		_, exists, err := s.lstat(s.base)
		if err != nil || !exists {
			return err
		}
		if same, err := s.same(s.base, e.Kept); err != nil || !same {
			return changedMeanwhile(given, err)
		}
		if dry {
			return nil
		}
		return s.unlink(s.base)
	}
	staged, ok, err := s.sum(e.Staged)
	if err != nil {
		return err
	}
	if !ok { // renamed already, or lost
		got, _, err := s.sum(s.base)
		if err != nil {
			return err
		}
		if got != e.NewSHA {
			return tool.Errorf(tool.WriteFailed, "%q holds neither its new content nor a staged copy of it", tool.Clip(given))
		}
		return nil
	}
	if staged != e.NewSHA {
		return tool.Errorf(tool.WriteFailed, "the staged copy of %q is not the new content (sha256 %s)", tool.Clip(given), staged)
	}
	if e.OldSHA == "" {
		if _, exists, err := s.lstat(s.base); err != nil || exists {
			return createdMeanwhile(given, err)
		}
	} else if same, err := s.same(s.base, e.Kept); err != nil || !same {
		return changedMeanwhile(given, err)
	}
	if dry {
		return nil
	}
	return s.rename(e.Staged, s.base, e.OldSHA == "")
}

// back puts the entry's old state back and removes its temporary names.
// touched says the transaction passed its commit point, so the file itself
// may have been replaced or removed; before it only temporary names exist
// and the file is never looked at, whatever it holds.
func (t *txn) back(i int, touched, dry bool) error {
	e, s := t.entries[i], t.sites[i]
	if touched {
		if err := t.restore(e, s, dry); err != nil {
			return err
		}
	}
	if dry {
		return nil
	}
	if e.Staged != "" {
		if err := s.unlink(e.Staged); err != nil {
			return err
		}
	}
	if e.Kept != "" {
		return s.unlink(e.Kept)
	}
	return nil
}

// restore undoes what forward did to the file itself, if it did anything:
// only a file that holds exactly the new content is taken for the
// transaction's own work; anything else is someone else's and left alone.
func (t *txn) restore(e entry, s *site, dry bool) error {
	given := tool.Clip(s.loc.Given)
	_, hasKept, err := s.lstat(e.Kept)
	if err != nil {
		return err
	}
	if e.Remove {
		_, exists, err := s.lstat(s.base)
		switch {
		case err != nil || exists:
			return err // never removed
		case !hasKept:
			return tool.Errorf(tool.WriteFailed, "%q was removed and its old content is lost", tool.Clip(given))
		case dry:
			return nil
		}
		return s.rename(e.Kept, s.base, true)
	}
	if _, staged, err := s.lstat(e.Staged); err != nil || staged {
		return err // never renamed over the file
	}
	got, exists, err := s.sum(s.base)
	switch {
	case err != nil:
		return err
	case !exists || got != e.NewSHA:
		return nil // never replaced, put back already, or someone else's since: not ours to touch
	case e.OldSHA == e.NewSHA:
		return nil // old and new are one content
	case e.OldSHA != "" && !hasKept:
		return tool.Errorf(tool.WriteFailed, "%q was replaced and its old content is lost", tool.Clip(given))
	case dry:
		return nil
	case e.OldSHA == "":
		return s.unlink(s.base)
	}
	return s.rename(e.Kept, s.base, false)
}

func changedMeanwhile(given string, err error) error {
	if err != nil {
		return err
	}
	return tool.Errorf(tool.ShaMismatch, "%q was replaced or removed by someone else during the change", tool.Clip(given)).
		WithSuggestion("Read the file again (fs_read) and redo the change on its current content.")
}

func createdMeanwhile(given string, err error) error {
	if err != nil {
		return err
	}
	return tool.Errorf(tool.AlreadyExists, "%q was created by someone else during the change", tool.Clip(given)).
		WithSuggestion("Read it (fs_read) and redo the change on the files as they are now.")
}
