package fsroot

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"
)

// Journal makes a change of several files one transaction that survives a
// crash of the process: each file's new content is first staged beside it,
// and the journal, a file in the state directory, names every target, its
// staged copy and the old and new SHA-256 before any target is touched.
// The next start finishes or undoes what a crash interrupted (Recover).
// The state directory is not inside the roots, so the agent cannot write a
// journal; recovery checks one all the same.
type Journal struct {
	dir string
	// crash, in tests, is called at every step of a transaction and of a
	// recovery; a test panics in it to stop the work where SIGKILL would.
	crash func(step string)
}

// NewJournal is the journal kept in stateDir/journal. The directory is
// created (0700) by the first transaction.
func NewJournal(stateDir string) *Journal {
	return &Journal{dir: filepath.Join(stateDir, "journal")}
}

// Dir is the directory of the journal files.
func (j *Journal) Dir() string { return j.dir }

func (j *Journal) step(name string) {
	if j.crash != nil {
		j.crash(name)
	}
}

// journalExt ends the name of every journal file.
const journalExt = ".journal"

// maxJournalBytes bounds a journal file recovery reads: an entry takes a
// few hundred bytes and a diff is bounded by the largest message.
const maxJournalBytes = 64 << 20

// intent is the first line of a journal file: everything recovery needs to
// finish or undo the transaction. It is synced before any file is staged.
type intent struct {
	Version int     `json:"version"`
	ID      string  `json:"id"`
	Entries []entry `json:"entries"`
}

// entry is one file of a transaction. Staged and Kept are names in the
// file's own directory.
type entry struct {
	Root    string `json:"root"`     // the root's path
	RootDev uint64 `json:"root_dev"` // and identity, checked again by recovery
	RootIno uint64 `json:"root_ino"`
	Rel     string `json:"rel"` // the file, relative to the root
	Remove  bool   `json:"remove,omitempty"`
	Staged  string `json:"staged,omitempty"`     // the new content, until renamed over the file
	Kept    string `json:"kept,omitempty"`       // a hard link to the old content, until the end
	OldSHA  string `json:"old_sha256,omitempty"` // empty: the file did not exist
	NewSHA  string `json:"new_sha256,omitempty"`
}

// mark is each later line: the commit point, after which recovery rolls
// forward, or an abort after it, when the transaction undid itself.
type mark struct {
	Mark string `json:"mark"`
}

const (
	markCommit = "commit"
	markAbort  = "abort"
)

// parseJournal reads a journal file. Lines are appended and synced one at
// a time, so a last line without its newline was cut short by a crash and
// never counted; complete is false when even the intent was, in which case
// nothing was staged yet. state is "" before the commit point, else the
// last mark.
func parseJournal(b []byte) (in intent, state string, complete bool, err error) {
	lines := bytes.Split(b, []byte("\n"))
	lines = lines[:len(lines)-1] // the text after the last newline, if any, never counted
	if len(lines) == 0 {
		return intent{}, "", false, nil
	}
	if err := strictJSON(lines[0], &in); err != nil {
		return intent{}, "", true, fmt.Errorf("intent: %w", err)
	}
	if err := in.validate(); err != nil {
		return intent{}, "", true, err
	}
	for _, l := range lines[1:] {
		var m mark
		if err := strictJSON(l, &m); err != nil {
			return intent{}, "", true, fmt.Errorf("mark: %w", err)
		}
		switch {
		case m.Mark == markCommit && state == "", m.Mark == markAbort && state == markCommit:
			state = m.Mark
		default:
			return intent{}, "", true, fmt.Errorf("mark %q after %q", m.Mark, state)
		}
	}
	return in, state, true, nil
}

func strictJSON(b []byte, v any) error {
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(v); err != nil {
		return err
	}
	if d.More() {
		return fmt.Errorf("text after the record")
	}
	return nil
}

func (in intent) validate() error {
	if in.Version != 1 {
		return fmt.Errorf("version %d, want 1", in.Version)
	}
	if !isHex(in.ID, idBytes*2) {
		return fmt.Errorf("id %q is not %d hex digits", in.ID, idBytes*2)
	}
	if len(in.Entries) == 0 {
		return fmt.Errorf("no entries")
	}
	for i, e := range in.Entries {
		if err := e.validate(); err != nil {
			return fmt.Errorf("entry %d: %w", i, err)
		}
	}
	return nil
}

// validate checks an entry on its own: recovery acts on nothing else.
func (e entry) validate() error {
	switch {
	case !filepath.IsAbs(e.Root) || filepath.Clean(e.Root) != e.Root:
		return fmt.Errorf("root %q is not a clean absolute path", e.Root)
	case e.Rel == "." || !filepath.IsLocal(e.Rel) || path.Clean(e.Rel) != e.Rel:
		return fmt.Errorf("rel %q is not a clean path below the root", e.Rel)
	case e.OldSHA != "" && !isHex(e.OldSHA, 64), e.NewSHA != "" && !isHex(e.NewSHA, 64):
		return fmt.Errorf("a sha256 is not 64 hex digits")
	case (e.OldSHA != "") != (e.Kept != ""):
		return fmt.Errorf("an old content needs a kept name, and only it")
	case e.Kept != "" && !isTempName(e.Kept):
		return fmt.Errorf("kept %q is not a temporary name", e.Kept)
	case e.Remove && (e.OldSHA == "" || e.Staged != "" || e.NewSHA != ""):
		return fmt.Errorf("a removal has an old content and nothing new")
	case !e.Remove && (e.NewSHA == "" || !isTempName(e.Staged)):
		return fmt.Errorf("a write needs a new sha256 and a temporary staged name")
	case e.Staged != "" && e.Staged == e.Kept:
		return fmt.Errorf("staged and kept are one name")
	}
	return nil
}

// isTempName accepts a plain name in the directory that hostmcp's
// temporary files use, and nothing that could reach elsewhere.
func isTempName(n string) bool {
	return strings.HasPrefix(n, TempPrefix) && len(n) <= 255 && !strings.ContainsAny(n, "/\x00")
}

func isHex(s string, n int) bool {
	if len(s) != n || strings.ToLower(s) != s {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil
}

// journalFile is the journal of a live transaction, locked (flock) for as
// long as it runs so that a recovery in another process leaves it alone.
type journalFile struct {
	f   *os.File
	dir string
}

// create writes and syncs the intent, and the directory entry with it. The
// file is locked before it has a name (an O_TMPFILE linked once written),
// so a recovery never sees it unlocked or without its intent; a file
// system without O_TMPFILE leaves a moment where it could.
func (j *Journal) create(in intent) (*journalFile, error) {
	if err := os.MkdirAll(j.dir, 0o700); err != nil {
		return nil, err
	}
	b, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	name := filepath.Join(j.dir, in.ID+journalExt)
	fd, err := unix.Open(j.dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, 0o600)
	unnamed := err == nil
	if err != nil && noTmpfile(err) {
		fd, err = unix.Open(name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_CLOEXEC, 0o600)
	}
	if err != nil {
		return nil, err
	}
	jf := &journalFile{f: os.NewFile(uintptr(fd), name), dir: j.dir}
	err = unix.Flock(fd, unix.LOCK_EX)
	if err == nil {
		err = jf.append(append(b, '\n'))
	}
	if err == nil && unnamed {
		err = unix.Linkat(unix.AT_FDCWD, fmt.Sprintf("/proc/self/fd/%d", fd), unix.AT_FDCWD, name, unix.AT_SYMLINK_FOLLOW)
	}
	if err == nil {
		err = syncDir(j.dir)
	}
	if err != nil {
		jf.remove()
		return nil, err
	}
	return jf, nil
}

// mark appends a mark and syncs it.
func (jf *journalFile) mark(m string) error {
	b, err := json.Marshal(mark{Mark: m})
	if err != nil {
		return err
	}
	return jf.append(append(b, '\n'))
}

func (jf *journalFile) append(line []byte) error {
	if _, err := jf.f.Write(line); err != nil {
		return err
	}
	return jf.f.Sync()
}

// remove ends the transaction: the journal goes, then its lock.
func (jf *journalFile) remove() error {
	err := os.Remove(jf.f.Name())
	if err == nil {
		err = syncDir(jf.dir)
	}
	jf.f.Close()
	return err
}

// close releases the lock and leaves the journal for recovery.
func (jf *journalFile) close() { jf.f.Close() }

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
