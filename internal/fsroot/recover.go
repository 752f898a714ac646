package fsroot

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// What Recover did with an interrupted transaction.
const (
	RolledForward = "forward" // every file is on its new content
	RolledBack    = "back"    // every file is on its old content
	Ignored       = "ignored" // not touched, the journal kept: it names something outside the roots
	Failed        = "failed"  // the journal kept; the next start tries again
)

// Recovered is what Recover did with one interrupted transaction.
type Recovered struct {
	Journal string   // the journal file
	Action  string   // RolledForward, RolledBack, Ignored or Failed
	Files   []string // the files it names, absolute
	Reason  string   // why it was ignored or failed, or why a committed one went back
}

// Recover finishes or undoes every transaction a crash interrupted, so that
// each one's files are all on their old content or all on their new one,
// and removes its temporary files and its journal. A transaction is rolled
// forward once its commit point was written (if every file can still go
// there), else back. Run it at start-up, before any file tool: a journal
// that a live transaction of another process holds is left alone. Each
// journal is read strictly: one that names a root not configured (or no
// longer the same directory), a path outside the roots or a read-only root
// is ignored and kept for a start with the roots it was written under.
func (j *Journal) Recover(roots *Set) []Recovered {
	ents, err := os.ReadDir(j.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return []Recovered{{Journal: j.dir, Action: Failed, Reason: err.Error()}}
	}
	var names []string
	for _, e := range ents {
		if strings.HasSuffix(e.Name(), journalExt) && e.Type().IsRegular() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	var out []Recovered
	for _, n := range names {
		if r := j.recoverOne(roots, filepath.Join(j.dir, n)); r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// recoverOne recovers the transaction of one journal file; nil means there
// was nothing to do (another process's live transaction, or one that ended
// meanwhile).
func (j *Journal) recoverOne(roots *Set, p string) *Recovered {
	r := &Recovered{Journal: p}
	fail := func(action string, err error) *Recovered {
		r.Action, r.Reason = action, err.Error()
		return r
	}
	f, err := os.Open(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fail(Failed, err)
	}
	defer f.Close()
	if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); errors.Is(err, unix.EWOULDBLOCK) {
		return nil
	} else if err != nil {
		return fail(Failed, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil || st.Nlink == 0 {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(f, maxJournalBytes+1))
	if err != nil {
		return fail(Failed, err)
	}
	if len(b) > maxJournalBytes {
		return fail(Ignored, fmt.Errorf("the journal is larger than %d bytes", maxJournalBytes))
	}
	in, state, complete, err := parseJournal(b)
	if !complete { // cut short while its intent was written: nothing was staged
		r.Action, r.Reason = RolledBack, "the journal was cut short before any file was staged"
		return j.drop(r)
	}
	if err != nil {
		return fail(Ignored, err)
	}
	for _, e := range in.Entries {
		r.Files = append(r.Files, filepath.Join(e.Root, e.Rel))
	}
	locs, err := locateAll(roots, in.Entries)
	if err != nil {
		return fail(Ignored, err)
	}
	t, err := j.open(in.Entries, locs)
	if err != nil {
		return fail(Failed, err)
	}
	defer t.close()
	if r.Action, r.Reason, err = t.recover(state); err != nil {
		return fail(Failed, err)
	}
	j.step("recovered")
	return j.drop(r)
}

// drop removes a journal whose transaction is over.
func (j *Journal) drop(r *Recovered) *Recovered {
	if err := os.Remove(r.Journal); err != nil {
		r.Action, r.Reason = Failed, "removing the journal: "+err.Error()
		return r
	}
	if err := syncDir(j.dir); err != nil {
		r.Action, r.Reason = Failed, "syncing the journal directory: "+err.Error()
	}
	return r
}

// recover takes every entry one way: forward after the commit point when
// each can go there, else back. Both are checked for every entry first.
// reason says why a committed transaction went back.
func (t *txn) recover(state string) (action, reason string, err error) {
	if state == markCommit {
		ferr := t.each(func(i int) error { return t.forward(i, true) })
		if ferr == nil {
			for i := range t.entries {
				if err := t.forward(i, false); err != nil {
					return "", "", err
				}
				t.j.step(fmt.Sprintf("recover forward %d", i))
			}
			return RolledForward, "", t.finish()
		}
		reason = "past its commit point, but it could not go forward: " + tool.AsError(ferr).Message
	}
	touched := state != ""
	if err := t.each(func(i int) error { return t.back(i, touched, true) }); err != nil {
		return "", "", fmt.Errorf("neither forward nor back: %w", err)
	}
	for i := len(t.entries) - 1; i >= 0; i-- {
		if err := t.back(i, touched, false); err != nil {
			return "", "", err
		}
		t.j.step(fmt.Sprintf("recover back %d", i))
	}
	return RolledBack, reason, t.syncAll()
}

func (t *txn) each(f func(i int) error) error {
	for i := range t.entries {
		if err := f(i); err != nil {
			return err
		}
	}
	return nil
}

// locateAll locates every entry of a journal in the configured roots.
func locateAll(roots *Set, entries []entry) ([]Loc, error) {
	locs := make([]Loc, len(entries))
	for i, e := range entries {
		l, err := locate(roots, e)
		if err != nil {
			return nil, err
		}
		locs[i] = l
	}
	return locs, nil
}

// open opens the directory of every entry, located.
func (j *Journal) open(entries []entry, locs []Loc) (*txn, error) {
	t := &txn{j: j, entries: entries, sites: make([]*site, len(entries))}
	for i, l := range locs {
		s, err := openSite(l, false)
		if err != nil {
			t.close()
			return nil, err
		}
		t.sites[i] = s
	}
	return t, nil
}

// locate finds an entry's file through the configured roots: its root
// must resolve inside them and still be the directory (device and inode)
// the journal was written under, and the file, reached from there name by
// name as the journal spells it, must be where a caller's path to it
// resolves too, and writable.
func locate(roots *Set, e entry) (Loc, error) {
	abs := filepath.Join(e.Root, e.Rel)
	rl, err := roots.Resolve(e.Root)
	if err != nil {
		return Loc{}, fmt.Errorf("it names %s, outside the configured roots", e.Root)
	}
	st, err := rl.Stat()
	if err != nil {
		return Loc{}, fmt.Errorf("its root %s: %w", e.Root, err)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); !ok || uint64(sys.Dev) != e.RootDev || uint64(sys.Ino) != e.RootIno {
		return Loc{}, fmt.Errorf("%s is no longer the directory the journal was written under", e.Root)
	}
	l := rl
	for _, name := range strings.Split(e.Rel, "/") {
		l = l.Child(name)
	}
	if r, err := roots.Resolve(abs); err != nil || r.Root != l.Root || r.Rel != l.Rel {
		return Loc{}, fmt.Errorf("it names %s, outside the configured roots or in another root than its own", abs)
	}
	if l.Writable() != nil {
		return Loc{}, fmt.Errorf("it names %s, in a read-only root", abs)
	}
	return l, nil
}
