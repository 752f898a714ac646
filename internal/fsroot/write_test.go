package fsroot

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

func TestWriteKeepsModeAndChecksSHA(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, Spec{Path: dir})
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("old\n"), 0o640); err != nil {
		t.Fatal(err)
	}
	l, _ := s.Resolve("f")
	if _, err := l.Write([]byte("new\n"), WriteOptions{ExpectedSHA256: strings.Repeat("0", 64)}); code(err) != tool.ShaMismatch {
		t.Fatalf("want SHA_MISMATCH, got %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old\n" {
		t.Fatalf("a mismatch wrote: %q", b)
	}
	sum := sha256.Sum256([]byte("old\n"))
	res, err := l.Write([]byte("new\n"), WriteOptions{ExpectedSHA256: hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	want := sha256.Sum256([]byte("new\n"))
	if res.NewSHA256 != hex.EncodeToString(want[:]) || res.BytesWritten != 4 {
		t.Errorf("result %+v", res)
	}
	st, _ := os.Stat(p)
	if st.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want 0640", st.Mode())
	}
	res, err = l.Write([]byte("more\n"), WriteOptions{Append: true})
	if b, _ := os.ReadFile(p); err != nil || string(b) != "new\nmore\n" || res.BytesWritten != 5 {
		t.Errorf("append: %q %v", b, err)
	}
	assertNoTemps(t, dir)
}

func TestWriteRefusesLinksAndSpecials(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, Spec{Path: dir})
	must(t, os.WriteFile(filepath.Join(dir, "f"), []byte("shared\n"), 0o644))
	must(t, os.Link(filepath.Join(dir, "f"), filepath.Join(dir, "hard")))
	must(t, syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644))
	must(t, os.Symlink("f", filepath.Join(dir, "sym")))
	for name, want := range map[string]tool.Code{"hard": tool.NotAFile, "fifo": tool.NotAFile, "sym": tool.NotAFile} {
		l, _ := s.Resolve(name)
		if _, err := l.Write([]byte("x"), WriteOptions{}); code(err) != want {
			t.Errorf("%s: got %v, want %s", name, err, want)
		}
	}
	l, _ := s.Resolve("hard")
	if _, err := l.Write([]byte("mine\n"), WriteOptions{AllowHardlink: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "shared\n" {
		t.Errorf("the other name changed: %q", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "hard")); string(b) != "mine\n" {
		t.Errorf("this name: %q", b)
	}
}

// A fault part-way through the new content leaves the target as it was
// and no temporary file behind.
func TestWriteFaultLeavesTargetUntouched(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, Spec{Path: dir})
	old := bytes.Repeat([]byte("old line\n"), 1000)
	must(t, os.WriteFile(filepath.Join(dir, "f"), old, 0o600))
	l, _ := s.Resolve("f")
	for _, at := range []int64{1, chunk, 3 * chunk} {
		for _, appendMode := range []bool{false, true} {
			_, err := l.Write(bytes.Repeat([]byte("new line\n"), 200_000), WriteOptions{
				Append: appendMode, AllowHardlink: true,
				fault: func(n int64) error {
					if n >= at {
						return syscall.ENOSPC
					}
					return nil
				},
			})
			if code(err) != tool.WriteFailed {
				t.Fatalf("fault at %d: want WRITE_FAILED, got %v", at, err)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, "f")); !bytes.Equal(b, old) {
				t.Fatalf("fault at %d: target changed (%d bytes)", at, len(b))
			}
			assertNoTemps(t, dir)
		}
	}
}

// The writer is killed with SIGKILL at a random point of a stream of large
// replaces; the target is always one whole version. The new content lives
// in an unnamed O_TMPFILE until it is linked to the target's temporary name
// just before the rename: a kill between the two leaves that one name,
// holding a whole version, and the next write of the target removes it.
func TestWriteKilledIsOldOrNew(t *testing.T) {
	if os.Getenv("FSROOT_WRITER") != "" {
		writerHelper()
		return
	}
	dir := t.TempDir()
	target := filepath.Join(dir, "target")
	must(t, os.WriteFile(target, version(0), 0o644))
	for round := range 12 {
		cmd := exec.Command(os.Args[0], "-test.run=^TestWriteKilledIsOldOrNew$")
		cmd.Env = append(os.Environ(), "FSROOT_WRITER="+dir)
		stdout, err := cmd.StdoutPipe()
		must(t, err)
		must(t, cmd.Start())
		// Wait for the helper to be writing, then kill it mid-stream.
		line := make([]byte, 8)
		if _, err := io.ReadFull(stdout, line); err != nil || string(line) != "writing\n" {
			t.Fatalf("helper did not start: %q %v", line, err)
		}
		time.Sleep(time.Duration(3+round*7) * time.Millisecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		_ = cmd.Wait()
		got, err := os.ReadFile(target)
		must(t, err)
		if !isVersion(got) {
			t.Fatalf("round %d: target is partial (%d bytes)", round, len(got))
		}
		for _, name := range temps(t, dir) {
			b, _ := os.ReadFile(filepath.Join(dir, name))
			if name != TempPrefix+"target" || !isVersion(b) {
				t.Fatalf("round %d: left %s (%d bytes), not a whole version under the target's temporary name", round, name, len(b))
			}
		}
	}
	s := newSet(t, Spec{Path: dir})
	l, _ := s.Resolve("target")
	if _, err := l.Write(version(99), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, dir)
}

// A temporary name a killed writer left is removed by the next write of the
// target; one a live writer holds (locked) is left alone.
func TestWriteReclaimsDeadWritersTemp(t *testing.T) {
	dir := t.TempDir()
	s := newSet(t, Spec{Path: dir})
	stale := filepath.Join(dir, TempPrefix+"f")
	must(t, os.WriteFile(stale, []byte("a dead writer's copy\n"), 0o600))
	l, _ := s.Resolve("f")
	if _, err := l.Write([]byte("one\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, dir)

	live, err := os.OpenFile(stale, os.O_CREATE|os.O_WRONLY, 0o600)
	must(t, err)
	defer live.Close()
	must(t, syscall.Flock(int(live.Fd()), syscall.LOCK_EX))
	if _, err := l.Write([]byte("two\n"), WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "two\n" {
		t.Fatalf("target: %q", b)
	}
	if got := temps(t, dir); len(got) != 1 || got[0] != TempPrefix+"f" {
		t.Fatalf("the live writer's name was not left alone: %v", got)
	}
}

func writerHelper() {
	dir := os.Getenv("FSROOT_WRITER")
	s, err := Open([]Spec{{Path: dir}})
	if err != nil {
		panic(err)
	}
	l, _ := s.Resolve("target")
	fmt.Println("writing")
	for i := 1; ; i++ {
		if _, err := l.Write(version(i), WriteOptions{}); err != nil {
			panic(err)
		}
	}
}

// version is a 4 MiB content whose every line names i, so a mix of two
// versions or a short one is detected.
func version(i int) []byte {
	line := fmt.Sprintf("version %06d %s\n", i, strings.Repeat("x", 48))
	return bytes.Repeat([]byte(line), (4<<20)/len(line))
}

func isVersion(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	var i int
	if _, err := fmt.Sscanf(string(b[:15]), "version %06d", &i); err != nil {
		return false
	}
	return bytes.Equal(b, version(i))
}

func assertNoTemps(t *testing.T, dir string) {
	t.Helper()
	for _, name := range temps(t, dir) {
		t.Errorf("temporary file left: %s", name)
	}
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	must(t, err)
	var names []string
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), TempPrefix) {
			names = append(names, e.Name())
		}
	}
	return names
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil && !errors.Is(err, os.ErrExist) {
		t.Fatal(err)
	}
}
