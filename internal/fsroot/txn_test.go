package fsroot

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// scene is one transaction of every kind: a file modified, one created in a
// new directory, one deleted, one renamed (created under the new name,
// removed under the old), as a git diff makes them.
type scene struct {
	dir           string
	set           *Set
	before, after map[string]string // absent files are missing keys
}

func newScene(t *testing.T) *scene {
	t.Helper()
	dir := t.TempDir()
	sc := &scene{
		dir:    dir,
		before: map[string]string{"mod": "old mod\n", "gone": "gone\n", "from": "renamed\n"},
		after:  map[string]string{"mod": "new mod\n", "sub/dir/new": "created\n", "to": "renamed and changed\n"},
	}
	for name, content := range sc.before {
		must(t, os.WriteFile(filepath.Join(dir, name), []byte(content), 0o640))
	}
	sc.set = newSet(t, Spec{Path: dir})
	return sc
}

func (sc *scene) changes(t *testing.T) []Change {
	t.Helper()
	loc := func(p string) Loc {
		l, err := sc.set.Resolve(p)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	return []Change{
		{Loc: loc("mod"), Content: []byte(sc.after["mod"]), OldSHA256: hexSum(sc.before["mod"])},
		{Loc: loc("sub/dir/new"), Content: []byte(sc.after["sub/dir/new"])},
		{Loc: loc("to"), Content: []byte(sc.after["to"]), Mode: 0o600},
		{Loc: loc("gone"), Remove: true, OldSHA256: hexSum(sc.before["gone"])},
		{Loc: loc("from"), Remove: true, OldSHA256: hexSum(sc.before["from"])},
	}
}

// state is "old" or "new" when every file is on that version, else which
// file holds what.
func (sc *scene) state(t *testing.T) string {
	t.Helper()
	var names []string
	for n := range sc.before {
		names = append(names, n)
	}
	for n := range sc.after {
		if _, ok := sc.before[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	old, neu := true, true
	var each []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(sc.dir, n))
		got, exists := string(b), err == nil
		wantOld, hasOld := sc.before[n]
		wantNew, hasNew := sc.after[n]
		old = old && exists == hasOld && got == wantOld
		neu = neu && exists == hasNew && got == wantNew
		each = append(each, n+"="+strings.TrimSpace(got))
	}
	switch {
	case old:
		return "old"
	case neu:
		return "new"
	}
	return strings.Join(each, ", ")
}

// tidy fails the test for any temporary file below the root and any
// journal left in the journal's directory.
func (sc *scene) tidy(t *testing.T, j *Journal) {
	t.Helper()
	_ = filepath.WalkDir(sc.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasPrefix(d.Name(), TempPrefix) {
			t.Errorf("temporary file left: %s", p)
		}
		return err
	})
	if left, _ := filepath.Glob(filepath.Join(j.Dir(), "*")); len(left) > 0 {
		t.Errorf("journal left: %v", left)
	}
}

func hexSum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func TestApplyChangesEveryFile(t *testing.T) {
	sc := newScene(t)
	j := NewJournal(t.TempDir())
	if err := j.Apply(sc.changes(t)); err != nil {
		t.Fatal(err)
	}
	if got := sc.state(t); got != "new" {
		t.Fatalf("files: %s", got)
	}
	for name, want := range map[string]os.FileMode{"mod": 0o640, "to": 0o600, "sub/dir/new": 0o644} {
		if st, _ := os.Stat(filepath.Join(sc.dir, name)); st.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", name, st.Mode().Perm(), want)
		}
	}
	if st, _ := os.Stat(j.Dir()); st.Mode().Perm() != 0o700 {
		t.Errorf("journal directory mode %v, want 0700", st.Mode().Perm())
	}
	sc.tidy(t, j)
}

// A change whose starting point does not hold writes nothing, temporary
// files included.
func TestApplyRefusesAndWritesNothing(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, sc *scene, ch []Change) []Change
		want  tool.Code
	}{
		{"stale content", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.WriteFile(filepath.Join(sc.dir, "from"), []byte("changed by someone\n"), 0o640))
			return ch
		}, tool.ShaMismatch},
		{"created file exists", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.WriteFile(filepath.Join(sc.dir, "to"), []byte("there already\n"), 0o644))
			return ch
		}, tool.AlreadyExists},
		{"removed file is gone", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.Remove(filepath.Join(sc.dir, "gone")))
			return ch
		}, tool.NotFound},
		{"symbolic link", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.Rename(filepath.Join(sc.dir, "mod"), filepath.Join(sc.dir, "real")))
			must(t, os.Symlink("real", filepath.Join(sc.dir, "mod")))
			return ch
		}, tool.NotAFile},
		{"hard links", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.Link(filepath.Join(sc.dir, "mod"), filepath.Join(sc.dir, "other-name")))
			return ch
		}, tool.NotAFile},
		{"one file twice", func(t *testing.T, sc *scene, ch []Change) []Change {
			return append(ch, ch[0])
		}, tool.InvalidArgument},
		{"one file by two names", func(t *testing.T, sc *scene, ch []Change) []Change {
			must(t, os.Symlink(".", filepath.Join(sc.dir, "alias")))
			l, err := sc.set.Resolve("alias/mod")
			must(t, err)
			return append(ch, Change{Loc: l, Content: []byte("x"), OldSHA256: hexSum(sc.before["mod"])})
		}, tool.InvalidArgument},
		{"name not UTF-8", func(t *testing.T, sc *scene, ch []Change) []Change {
			l, err := sc.set.Resolve("caf\xe9.txt")
			must(t, err)
			return append(ch, Change{Loc: l, Content: []byte("x")})
		}, tool.InvalidPath},
		{"read-only root", func(t *testing.T, sc *scene, ch []Change) []Change {
			ro := newSet(t, Spec{Path: sc.dir, ReadOnly: true})
			l, _ := ro.Resolve("mod")
			return append(ch, Change{Loc: l, Content: []byte("x"), OldSHA256: hexSum(sc.before["mod"])})
		}, tool.ReadOnlyMode},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sc := newScene(t)
			ch := tc.setup(t, sc, sc.changes(t))
			snapshot := listing(t, sc.dir)
			j := NewJournal(t.TempDir())
			if err := j.Apply(ch); code(err) != tc.want {
				t.Fatalf("got %v, want %s", err, tc.want)
			}
			if got := listing(t, sc.dir); got != snapshot {
				t.Errorf("files changed:\n%s\nwant\n%s", got, snapshot)
			}
			sc.tidy(t, j)
		})
	}
}

// listing is every name below dir with its content or link target, to see
// that nothing changed.
func listing(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			b.WriteString(rel + " -> " + target + "\n")
		case d.Type().IsRegular():
			c, _ := os.ReadFile(p)
			b.WriteString(rel + ": " + strings.TrimSpace(string(c)) + "\n")
		}
		return nil
	})
	return b.String()
}

// A file that cannot go forward after the commit point (someone created
// the target meanwhile) puts back every file already changed.
func TestApplyUndoesAfterTheCommitPoint(t *testing.T) {
	sc := newScene(t)
	j := NewJournal(t.TempDir())
	intruder := filepath.Join(sc.dir, "to")
	j.crash = func(step string) {
		if step == "forward 1" { // mod is new already
			must(t, os.WriteFile(intruder, []byte("someone else's\n"), 0o644))
		}
	}
	if err := j.Apply(sc.changes(t)); code(err) != tool.AlreadyExists {
		t.Fatalf("got %v, want ALREADY_EXISTS", err)
	}
	if b, _ := os.ReadFile(intruder); string(b) != "someone else's\n" {
		t.Fatalf("the file someone else created was not left alone: %q", b)
	}
	must(t, os.Remove(intruder))
	if got := sc.state(t); got != "old" {
		t.Fatalf("files: %s", got)
	}
	sc.tidy(t, j)
}
