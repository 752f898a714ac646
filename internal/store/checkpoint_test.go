package store

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"testing/synctest"
	"time"
)

// bigPayload is over the 1,000 pages at which SQLite's autocheckpoint would
// have copied the WAL back inside the commit.
func bigPayload() []byte {
	var p bytes.Buffer
	for i := 0; p.Len() < 6<<20; i++ {
		fmt.Fprintf(&p, "%08d a line of a handle's payload, long enough to fill pages\n", i)
	}
	return p.Bytes()
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}

// A put returns once its commit is in the WAL: copying the WAL back into
// the database is the checkpointer's, not the caller's. With the
// checkpointer stopped, a 6 MB put leaves the database file as it was, and
// a server killed then loses nothing: a copy of its files, as the kill
// leaves them, reads the handle whole.
func TestPutHandleLeavesTheCheckpointToTheStore(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	s.ckpt.close()
	payload := bigPayload()
	h, err := s.PutHandle(ctx, "big", map[string]any{"tool": "t"}, payload)
	if err != nil {
		t.Fatal(err)
	}
	if db, wal := fileSize(t, path), fileSize(t, path+"-wal"); db >= int64(len(payload)) || wal < int64(len(payload)) {
		t.Fatalf("after the put the database file is %d bytes and the WAL %d: the put checkpointed", db, wal)
	}
	copyDir := t.TempDir()
	for _, suffix := range []string{"", "-wal"} {
		data, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(copyDir, "hostmcp.db"+suffix), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s2 := openTest(t, &Options{Path: filepath.Join(copyDir, "hostmcp.db")})
	var read bytes.Buffer
	for read.Len() < len(payload) {
		sl, err := s2.ReadHandle(ctx, h.ID, int64(read.Len()), MaxByteLimit, Bytes)
		if err != nil || sl.Content == "" {
			t.Fatalf("the killed server's handle at byte %d: %q, %v", read.Len(), sl.Content, err)
		}
		read.WriteString(sl.Content)
	}
	if !bytes.Equal(read.Bytes(), payload) {
		t.Fatalf("the killed server's handle reads %d bytes unlike the %d put", read.Len(), len(payload))
	}
}

// The checkpointer copies the WAL back: at once after a large put,
// checkpointDelay after a small commit, and not again until something is
// committed. The bubble's clock moves only when every goroutine waits, so
// "at once" and "not again" are exact.
func TestCheckpointerCopiesTheWALBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		path := filepath.Join(t.TempDir(), "hostmcp.db")
		s := openTest(t, &Options{Path: path})
		payload := bigPayload()
		if _, err := s.PutHandle(ctx, "big", nil, payload); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n, size := s.ckpt.runs.Load(), fileSize(t, path); n != 1 || size < int64(len(payload)) {
			t.Fatalf("after a %d-byte put: %d checkpoints, a %d-byte database file; want 1 and the payload in it", len(payload), n, size)
		}
		time.Sleep(checkpointDelay)
		synctest.Wait()
		if n := s.ckpt.runs.Load(); n != 1 {
			t.Fatalf("%d checkpoints after one put, want 1", n)
		}

		if err := s.insertCalls(ctx, []CallRecord{{Tool: "fs_read", Outcome: OutcomeOK}}); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if n := s.ckpt.runs.Load(); n != 1 {
			t.Fatalf("a call record was checkpointed at once (%d checkpoints)", n)
		}
		time.Sleep(checkpointDelay)
		synctest.Wait()
		if n := s.ckpt.runs.Load(); n != 2 {
			t.Fatalf("%d checkpoints %s after a call record, want 2", n, checkpointDelay)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := s.ckpt.runs.Load(); n != 2 {
			t.Errorf("%d checkpoints ran in an hour with nothing committed", n-2)
		}
	})
}

// SQLite runs the commit hook before the commit writes its pages to the
// WAL, so a checkpoint that a commit's note merely hastened may run before
// those pages are there: a commit noted while the checkpointer waits is
// checkpointed by a second pass, not left for whatever is committed next.
func TestCheckpointerPassesAgainAfterACommitNotedWhileWaiting(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx := context.Background()
		s := openTest(t, &Options{Path: filepath.Join(t.TempDir(), "hostmcp.db")})
		record := func() {
			if err := s.insertCalls(ctx, []CallRecord{{Tool: "fs_read", Outcome: OutcomeOK}}); err != nil {
				t.Fatal(err)
			}
			synctest.Wait()
		}
		record()
		before := s.ckpt.runs.Load()
		time.Sleep(checkpointDelay / 2)
		record() // noted while the checkpointer waits for the first
		time.Sleep(checkpointDelay / 2)
		synctest.Wait()
		if n := s.ckpt.runs.Load() - before; n != 1 {
			t.Fatalf("%d checkpoints %s after the first commit, want 1", n, checkpointDelay)
		}
		time.Sleep(checkpointDelay)
		synctest.Wait()
		if n := s.ckpt.runs.Load() - before; n != 2 {
			t.Fatalf("%d checkpoints, want a second pass for the commit noted while waiting", n)
		}
		time.Sleep(time.Hour)
		synctest.Wait()
		if n := s.ckpt.runs.Load() - before; n != 2 {
			t.Errorf("%d checkpoints in an hour with nothing committed, want 2", n)
		}
	})
}
