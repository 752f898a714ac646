package execx

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// twoFiles makes a directory to confine a child to and another outside it,
// each holding a file f with known content.
func twoFiles(t *testing.T) (inside, outside string, want map[string]string) {
	t.Helper()
	if landlock.ABI() == 0 {
		testutil.Missing(t, "%v", landlock.ErrUnsupported)
	}
	base := t.TempDir()
	inside, outside = filepath.Join(base, "inside"), filepath.Join(base, "outside")
	want = map[string]string{}
	for _, d := range []string{inside, outside} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		f := filepath.Join(d, "f")
		want[f] = "the content of " + f + "\n"
		if err := os.WriteFile(f, []byte(want[f]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return inside, outside, want
}

func openDir(t *testing.T, path string) *os.File {
	t.Helper()
	d, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d
}

// A child confined to read a directory cannot truncate a file in it or
// outside it, by any system call, while it still reads what it may and
// Landlock still refuses writes. The refusals are the seccomp filter's
// (EPERM; ENOSYS for openat2), not Landlock's (EACCES): the ruleset no
// longer handles the truncate right.
func TestConfinedReaderCannotTruncate(t *testing.T) {
	inside, outside, want := twoFiles(t)
	r, name := newHelperRunner(t, 0)
	in, out := filepath.Join(inside, "f"), filepath.Join(outside, "f")
	cmd := helperCmd(name, "truncate", in, out)
	cmd.Confine = &landlock.Policy{Read: []*os.File{openDir(t, inside)}}
	res, err := r.Run(context.Background(), cmd)
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("helper: exit %d, %s", res.ExitCode, res.Stderr)
	}
	got := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(res.Stdout)), "\n") {
		way, rest, _ := strings.Cut(line, "\t")
		path, errno, _ := strings.Cut(rest, "\t")
		got[way+" "+path] = errno
	}
	for way := range truncWays(in) {
		wantErr := "EPERM"
		if strings.HasPrefix(way, "openat2") {
			wantErr = "ENOSYS"
		}
		for _, path := range []string{in, out} {
			if e := got[way+" "+path]; e != wantErr {
				t.Errorf("%s %s: %q, want %s", way, path, e, wantErr)
			}
		}
	}
	for key, wantErr := range map[string]string{
		"read " + in: "ok", "read " + out: "EACCES", "write " + in: "EACCES", "write " + out: "EACCES",
	} {
		if e := got[key]; e != wantErr {
			t.Errorf("%s: %q, want %s", key, e, wantErr)
		}
	}
	for path, text := range want {
		if b, err := os.ReadFile(path); err != nil || string(b) != text {
			t.Errorf("%s after the child: %q %v, want %q", path, b, err, text)
		}
	}
}

// A child granted Write somewhere (a session's root) gets no filter: it
// truncates inside its write root, Landlock refuses it elsewhere, as
// before.
func TestConfinedWriterTruncatesInItsRoot(t *testing.T) {
	inside, outside, _ := twoFiles(t)
	r, name := newHelperRunner(t, 0)
	in, out := filepath.Join(inside, "f"), filepath.Join(outside, "f")
	cmd := helperCmd(name, "truncate", in, out)
	cmd.Confine = &landlock.Policy{Rules: []landlock.Rule{{File: openDir(t, inside), Access: landlock.Write}}}
	res, err := r.Run(context.Background(), cmd)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"truncate\t" + in + "\tok\n", "truncate\t" + out + "\tEACCES\n"} {
		if !bytes.Contains(res.Stdout, []byte(want)) {
			t.Errorf("want %q in\n%s%s", want, res.Stdout, res.Stderr)
		}
	}
	if st, err := os.Stat(in); err != nil || st.Size() != 0 {
		t.Errorf("%s: %v, want truncated", in, err)
	}
}

// The filter is on the child and on the one parked thread that forked it,
// only while a reader is confined, never on a writer's; the server's other
// threads truncate their own files as before.
func TestTruncationFilterStaysWithTheChild(t *testing.T) {
	inside, _, _ := twoFiles(t)
	r, name := newHelperRunner(t, 0)
	for _, c := range []struct {
		name     string
		pol      *landlock.Policy
		filtered bool
	}{
		{"reader", &landlock.Policy{Read: []*os.File{openDir(t, inside)}}, true},
		{"writer", &landlock.Policy{Rules: []landlock.Rule{{File: openDir(t, inside), Access: landlock.Write}}}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			waitUnfiltered(t) // an earlier test's forking thread ends a moment after its child
			cmd := helperCmd(name, "sleep")
			cmd.Confine = c.pol
			p, err := r.Start(context.Background(), cmd)
			if err != nil {
				t.Fatal(err)
			}
			killLater(t, p.Pid())
			wantMode := "0"
			if c.filtered {
				wantMode = "2"
			}
			if m := seccompMode(t, filepath.Join("/proc", strconv.Itoa(p.Pid()), "status")); m != wantMode {
				t.Errorf("child's Seccomp %q, want %s", m, wantMode)
			}
			wantThreads := 0
			if c.filtered {
				wantThreads = 1
			}
			if th := filteredThreads(t); len(th) != wantThreads {
				t.Errorf("threads filtered while the child runs: %v, want %d", th, wantThreads)
			}
			mine := filepath.Join(t.TempDir(), "mine")
			var wg sync.WaitGroup
			for i := range 8 {
				wg.Go(func() {
					f := mine + strconv.Itoa(i)
					if err := os.WriteFile(f, []byte("some bytes"), 0o644); err != nil {
						t.Error(err)
						return
					}
					if err := os.Truncate(f, 1); err != nil {
						t.Errorf("the server truncating its own file: %v", err)
					}
				})
			}
			wg.Wait()
			p.Stop(0)
			if _, err := p.Wait(); err != nil {
				t.Fatal(err)
			}
			waitUnfiltered(t)
		})
	}
}

// waitUnfiltered waits for the threads that forked confined children to
// end, as they do once their children have exited.
func waitUnfiltered(t *testing.T) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for th := filteredThreads(t); len(th) > 0; th = filteredThreads(t) {
		if time.Now().After(deadline) {
			t.Fatalf("threads still filtered after their children exited: %v", th)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// seccompMode is the Seccomp line of a status file: 0 none, 2 a filter.
func seccompMode(t *testing.T, status string) string {
	t.Helper()
	b, err := os.ReadFile(status)
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(b), "\nSeccomp:\t")
	if !ok {
		t.Fatalf("no Seccomp line in %s", status)
	}
	mode, _, _ := strings.Cut(rest, "\n")
	return mode
}

// filteredThreads are the test process's threads under a seccomp filter,
// but the main one, which Go parks for good when a locked goroutine that
// ran on it returns (see confinedThreads).
func filteredThreads(t *testing.T) []string {
	t.Helper()
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Fatal(err)
	}
	var filtered []string
	for _, task := range tasks {
		if task.Name() == strconv.Itoa(os.Getpid()) {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc/self/task", task.Name(), "status"))
		if err == nil && strings.Contains(string(b), "\nSeccomp:\t2\n") {
			filtered = append(filtered, task.Name())
		}
	}
	return filtered
}
