package e2e

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A multi-file fs_apply_diff is one transaction across a SIGKILL too: the
// server is killed at a random moment of an apply that modifies, renames,
// deletes and creates files of a few MB each, then started again; every file
// is then on its old version or every file on its new one, never a mix, and
// no temporary file is left (issue 16 point 8). The restarted server, once
// checked, serves the next trial.
func TestApplyDiffSurvivesSIGKILL(t *testing.T) {
	const workers, trials = 4, 10 // 40 kills; workers run as -parallel allows
	fx := newCrashFixture()
	for w := range workers {
		t.Run(fmt.Sprint("worker", w), func(t *testing.T) {
			t.Parallel()
			r := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(w)))
			e := newEnv(t, "")
			fx.lay(t, e.root)
			srv := startServer(t, e)
			// How long one whole apply takes here, so the kills spread over it.
			start := time.Now()
			if res, err := srv.applyDiff(fx.diff); err != nil || res.IsError {
				t.Fatalf("the uninterrupted apply failed: %v %+v", err, res)
			}
			whole := time.Since(start)
			if got := fx.state(t, e.root); got != "new" {
				t.Fatalf("the uninterrupted apply left the files %s", got)
			}
			counts := map[string]int{}
			for trial := range trials {
				fx.lay(t, e.root)
				delay := time.Duration(r.Int64N(int64(whole)))
				srv.killDuring(fx.diff, delay)
				srv = startServer(t, e) // recovers before it serves
				got := fx.state(t, e.root)
				counts[got]++
				if got != "old" && got != "new" {
					t.Errorf("trial %d (killed after %v): the files are on mixed versions: %s", trial, delay, got)
				}
				for _, tmp := range leftovers(t, e.root) {
					t.Errorf("trial %d (killed after %v): temporary file left: %s", trial, delay, tmp)
				}
				if js, _ := filepath.Glob(filepath.Join(e.stateDir, "journal", "*")); len(js) > 0 {
					t.Errorf("trial %d: journal left after recovery: %v", trial, js)
				}
				for _, l := range srv.log.matching("recovered") {
					t.Logf("trial %d (killed after %v): %s", trial, delay, l)
				}
			}
			srv.cs.Close()
			t.Logf("%d trials over an apply of %v: %v", trials, whole, counts)
		})
	}
}

// server is a running `hostmcp serve` over stdio.
type server struct {
	cmd *exec.Cmd
	cs  *mcp.ClientSession
	log *lineLog
}

// startServer starts the server and completes the MCP handshake, which
// comes after start-up (and its recovery).
func startServer(t *testing.T, e *env) *server {
	t.Helper()
	s := &server{cmd: exec.Command(binary, e.args("serve")...), log: &lineLog{}}
	s.cmd.Stderr = s.log
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(testCtx(t), &mcp.CommandTransport{Command: s.cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("starting the server: %v\n%s", err, s.log.matching(""))
	}
	s.cs = cs
	t.Cleanup(func() { cs.Close() })
	return s
}

func (s *server) applyDiff(diff string) (*mcp.CallToolResult, error) {
	return s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "fs_apply_diff", Arguments: map[string]any{"diff_text": diff}})
}

// killDuring sends the diff and kills the server with SIGKILL delay later.
func (s *server) killDuring(diff string, delay time.Duration) {
	var wg sync.WaitGroup
	wg.Go(func() { _, _ = s.applyDiff(diff) })
	time.Sleep(delay)
	_ = s.cmd.Process.Signal(syscall.SIGKILL)
	wg.Wait()
	s.cs.Close()
}

// crashFixture is the files before and after the diff, and the diff.
type crashFixture struct {
	before, after map[string][]byte // absent files are missing keys
	diff          string
}

func newCrashFixture() *crashFixture {
	lines := func(tag string, n int) []string {
		l := make([]string, n)
		for i := range l {
			l[i] = fmt.Sprintf("%s line %07d %s\n", tag, i, strings.Repeat("x", 40))
		}
		return l
	}
	join := func(l []string) []byte { return []byte(strings.Join(l, "")) }
	mod, ren, gone, created := lines("mod", 100000), lines("ren", 100000), lines("gone", 2000), lines("new", 2000)
	modNew := append([]string{}, mod...)
	modNew[1], modNew[len(mod)-2] = "changed first\n", "changed last\n"
	renNew := append([]string{}, ren...)
	renNew[1] = "changed in the renamed file\n"

	var d strings.Builder
	last := len(mod)
	fmt.Fprintf(&d, "diff --git a/mod.txt b/mod.txt\n--- a/mod.txt\n+++ b/mod.txt\n@@ -1,3 +1,3 @@\n %s-%s+%s %s", mod[0], mod[1], modNew[1], mod[2])
	fmt.Fprintf(&d, "@@ -%d,3 +%d,3 @@\n %s-%s+%s %s", last-2, last-2, mod[last-3], mod[last-2], modNew[last-2], mod[last-1])
	fmt.Fprintf(&d, "diff --git a/ren.txt b/moved/ren.txt\nsimilarity index 99%%\nrename from ren.txt\nrename to moved/ren.txt\n")
	fmt.Fprintf(&d, "--- a/ren.txt\n+++ b/moved/ren.txt\n@@ -1,3 +1,3 @@\n %s-%s+%s %s", ren[0], ren[1], renNew[1], ren[2])
	fmt.Fprintf(&d, "diff --git a/gone.txt b/gone.txt\ndeleted file mode 100644\n--- a/gone.txt\n+++ /dev/null\n@@ -1,%d +0,0 @@\n", len(gone))
	for _, l := range gone {
		d.WriteString("-" + l)
	}
	fmt.Fprintf(&d, "diff --git a/new.txt b/new.txt\nnew file mode 100644\n--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,%d @@\n", len(created))
	for _, l := range created {
		d.WriteString("+" + l)
	}
	return &crashFixture{
		before: map[string][]byte{"mod.txt": join(mod), "ren.txt": join(ren), "gone.txt": join(gone)},
		after:  map[string][]byte{"mod.txt": join(modNew), "moved/ren.txt": join(renNew), "new.txt": join(created)},
		diff:   d.String(),
	}
}

// lay puts the files as they are before the diff.
func (fx *crashFixture) lay(t *testing.T, root string) {
	t.Helper()
	for name := range fx.after {
		if err := os.Remove(filepath.Join(root, name)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	for name, b := range fx.before {
		if err := os.WriteFile(filepath.Join(root, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// state says whether the root holds the old version of every file, the new
// version of every file, or else which file is on which version.
func (fx *crashFixture) state(t *testing.T, root string) string {
	t.Helper()
	var names []string
	for n := range fx.before {
		names = append(names, n)
	}
	for n := range fx.after {
		if _, ok := fx.before[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	old, neu := true, true
	var each []string
	for _, n := range names {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		isOld, isNew := sameVersion(b, err == nil, fx.before[n]), sameVersion(b, err == nil, fx.after[n])
		old, neu = old && isOld, neu && isNew
		switch {
		case isOld && isNew:
			each = append(each, n+"=both")
		case isOld:
			each = append(each, n+"=old")
		case isNew:
			each = append(each, n+"=new")
		default:
			each = append(each, fmt.Sprintf("%s=neither(%d bytes)", n, len(b)))
		}
	}
	switch {
	case old:
		return "old"
	case neu:
		return "new"
	}
	return strings.Join(each, " ")
}

// sameVersion compares by SHA-256; a nil want means the file must be absent.
func sameVersion(got []byte, exists bool, want []byte) bool {
	if want == nil {
		return !exists
	}
	return exists && sha256.Sum256(got) == sha256.Sum256(want)
}

// leftovers lists the temporary files of writes anywhere below root.
func leftovers(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".hostmcp-tmp-") {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// lineLog keeps a server's stderr to look for log lines.
type lineLog struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lineLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lineLog) matching(s string) []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, line := range strings.Split(l.buf.String(), "\n") {
		if strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}
