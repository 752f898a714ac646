package fsroot

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// crashed is the panic a test's crash hook stops the work with, where a
// SIGKILL would: nothing after it runs but closing descriptors.
type crashed struct{ step string }

// crashAt runs f with j stopping at its n-th step (0-based) and returns
// that step's name, or "" when f ran to its end.
func crashAt(j *Journal, n int, f func()) (stopped string) {
	count := 0
	j.crash = func(step string) {
		if count == n {
			panic(crashed{step})
		}
		count++
	}
	defer func() {
		j.crash = nil
		if r := recover(); r != nil {
			c, ok := r.(crashed)
			if !ok {
				panic(r)
			}
			stopped = c.step
		}
	}()
	f()
	return ""
}

// crashedApply is a scene whose transaction stopped at step n.
func crashedApply(t *testing.T, n int) (sc *scene, j *Journal, stopped string) {
	t.Helper()
	sc = newScene(t)
	j = NewJournal(t.TempDir())
	var err error
	stopped = crashAt(j, n, func() { err = j.Apply(sc.changes(t)) })
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	return sc, j, stopped
}

// A crash at any step of a transaction, then one at any step of its
// recovery, then a whole recovery: the files are all old (a crash before
// the commit point) or all new (after it), and nothing temporary is left.
func TestRecoverAfterACrashAtEveryStep(t *testing.T) {
	var steps []string
	sc, j := newScene(t), NewJournal(t.TempDir())
	j.crash = func(step string) { steps = append(steps, step) }
	if err := j.Apply(sc.changes(t)); err != nil || sc.state(t) != "new" || len(steps) < 15 {
		t.Fatalf("the whole apply (%d steps: %v) left %s: %v", len(steps), steps, sc.state(t), err)
	}
	committed := false
	for n, step := range steps {
		committed = committed || step == "committed"
		want, action := "old", RolledBack
		if committed {
			want, action = "new", RolledForward
		}
		t.Run(step, func(t *testing.T) {
			t.Parallel() // each step's scenes are its own; the time goes in fsync
			for m := 0; ; m++ {
				sc, j, stopped := crashedApply(t, n)
				if stopped != step {
					t.Fatalf("stopped at %s, want %s", stopped, step)
				}
				rstopped := crashAt(j, m, func() { j.Recover(sc.set) })
				rs := j.Recover(sc.set)
				if got := sc.state(t); got != want {
					t.Fatalf("recovery crashed at step %d (%s): files %s, want %s", m, rstopped, got, want)
				}
				sc.tidy(t, j)
				if rstopped == "" { // the first recovery ran whole
					if len(rs) != 0 {
						t.Errorf("a second recovery found %+v", rs)
					}
					break
				}
				if len(rs) != 1 || rs[0].Action != action || len(rs[0].Files) != 5 || !strings.HasPrefix(rs[0].Files[0], sc.dir) {
					t.Errorf("recovery crashed at %s: recovered %+v, want one %s of 5 files", rstopped, rs, action)
				}
			}
		})
	}
}

// After the commit point a file that can no longer go forward (its target
// was created meanwhile) sends the whole transaction back, whether the
// process was killed before it saw that or while it was undoing.
func TestRecoverGoesBackWhenForwardIsBlocked(t *testing.T) {
	for k := 0; ; k++ {
		sc := newScene(t)
		j := NewJournal(t.TempDir())
		intruder := filepath.Join(sc.dir, "to")
		backs := 0
		j.crash = func(step string) {
			switch {
			case step == "forward 1":
				must(t, os.WriteFile(intruder, []byte("someone else's\n"), 0o644))
				if k == 0 {
					panic(crashed{step})
				}
			case strings.HasPrefix(step, "back "):
				if backs++; backs == k {
					panic(crashed{step})
				}
			}
		}
		stopped := ""
		func() {
			defer func() {
				if r := recover(); r != nil {
					stopped = r.(crashed).step
				}
			}()
			_ = j.Apply(sc.changes(t))
		}()
		j.crash = nil
		rs := j.Recover(sc.set)
		if b, _ := os.ReadFile(intruder); string(b) != "someone else's\n" {
			t.Fatalf("k=%d: the file someone else created was not left alone: %q", k, b)
		}
		must(t, os.Remove(intruder))
		if got := sc.state(t); got != "old" {
			t.Fatalf("k=%d (stopped at %q): files %s", k, stopped, got)
		}
		sc.tidy(t, j)
		if stopped == "" {
			if k < 5 || len(rs) != 0 {
				t.Fatalf("k=%d: the undo ran whole, yet recovery found %+v", k, rs)
			}
			return
		}
		if len(rs) != 1 || rs[0].Action != RolledBack {
			t.Errorf("k=%d (stopped at %s): recovered %+v, want one back", k, stopped, rs)
		} else if k == 0 && !strings.Contains(rs[0].Reason, "could not go forward") {
			t.Errorf("a committed transaction went back without saying why: %+v", rs[0])
		}
	}
}

// A journal is acted on only under the roots it was written for: one that
// names a root not configured, a read-only one, or another directory at the
// root's path is ignored and kept, its files untouched, until a start with
// the right roots recovers it.
func TestRecoverIgnoresJournalsForOtherRoots(t *testing.T) {
	sc, j, stopped := crashedApply(t, 4)
	if !strings.HasPrefix(stopped, "staged") && !strings.HasPrefix(stopped, "kept") {
		t.Fatalf("stopped at %s, want a staging step", stopped)
	}
	snapshot := listing(t, sc.dir)
	moved := sc.dir + ".moved"
	for _, tc := range []struct {
		name  string
		roots func(t *testing.T) *Set
		why   string
	}{
		{"another root", func(t *testing.T) *Set { return newSet(t, Spec{Path: t.TempDir()}) }, "outside the configured roots"},
		{"read-only root", func(t *testing.T) *Set { return newSet(t, Spec{Path: sc.dir, ReadOnly: true}) }, "read-only root"},
		{"another directory at the root's path", func(t *testing.T) *Set {
			must(t, os.Rename(sc.dir, moved))
			must(t, os.Mkdir(sc.dir, 0o755))
			t.Cleanup(func() {
				must(t, os.Remove(sc.dir))
				must(t, os.Rename(moved, sc.dir))
			})
			return newSet(t, Spec{Path: sc.dir})
		}, "no longer the directory"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rs := j.Recover(tc.roots(t))
			if len(rs) != 1 || rs[0].Action != Ignored || !strings.Contains(rs[0].Reason, tc.why) {
				t.Fatalf("recovered %+v, want ignored: %s", rs, tc.why)
			}
		})
		if got := listing(t, sc.dir); got != snapshot {
			t.Fatalf("%s: files changed:\n%s\nwant\n%s", tc.name, got, snapshot)
		}
	}
	if rs := j.Recover(sc.set); len(rs) != 1 || rs[0].Action != RolledBack {
		t.Fatalf("under its own roots: recovered %+v, want back", rs)
	}
	if got := sc.state(t); got != "old" {
		t.Fatalf("files %s", got)
	}
	sc.tidy(t, j)
}

// A forged or damaged journal is ignored and kept; one cut short before
// its intent was whole (nothing was staged) is removed.
func TestRecoverReadsJournalsStrictly(t *testing.T) {
	sc, j, _ := crashedApply(t, 4)
	files, _ := filepath.Glob(filepath.Join(j.Dir(), "*"+journalExt))
	if len(files) != 1 {
		t.Fatalf("journals: %v", files)
	}
	good, err := os.ReadFile(files[0])
	must(t, err)
	snapshot := listing(t, sc.dir)
	for _, forged := range []string{
		strings.Replace(string(good), `"rel":"gone"`, `"rel":"../gone"`, 1),
		strings.Replace(string(good), `"kept":".hostmcp-tmp-`, `"kept":"x/.hostmcp-tmp-`, 1),
		string(good) + `{"mark":"abort"}` + "\n", // an abort without a commit
		string(good) + `{"mark":"commit","x":1}` + "\n",
	} {
		must(t, os.WriteFile(files[0], []byte(forged), 0o600))
		if rs := j.Recover(sc.set); len(rs) != 1 || rs[0].Action != Ignored {
			t.Errorf("forged journal %.80q...: recovered %+v, want ignored", forged, rs)
		}
		if got := listing(t, sc.dir); got != snapshot {
			t.Fatalf("a forged journal changed files:\n%s", got)
		}
	}
	must(t, os.WriteFile(files[0], good, 0o600))
	if rs := j.Recover(sc.set); len(rs) != 1 || rs[0].Action != RolledBack {
		t.Fatalf("recovered %+v", rs)
	}
	sc.tidy(t, j)

	cut := filepath.Join(j.Dir(), "0123456789abcdef"+journalExt)
	must(t, os.WriteFile(cut, good[:len(good)/2], 0o600))
	if rs := j.Recover(sc.set); len(rs) != 1 || rs[0].Action != RolledBack || rs[0].Files != nil {
		t.Fatalf("cut-short journal: recovered %+v", rs)
	}
	sc.tidy(t, j)
}

// A recovery in another process (here another open of the journal) leaves
// a live transaction alone: its journal is locked.
func TestRecoverLeavesALiveTransactionAlone(t *testing.T) {
	sc := newScene(t)
	j := NewJournal(t.TempDir())
	var during []Recovered
	other := NewJournal(filepath.Dir(j.Dir()))
	j.crash = func(step string) {
		if step == "committed" {
			during = other.Recover(sc.set)
		}
	}
	if err := j.Apply(sc.changes(t)); err != nil {
		t.Fatal(err)
	}
	if len(during) != 0 {
		t.Errorf("a recovery during the transaction did %+v", during)
	}
	if got := sc.state(t); got != "new" {
		t.Fatalf("files %s", got)
	}
	sc.tidy(t, j)
}
