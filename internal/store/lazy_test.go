package store

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// An idle server must not have SQLite's code and page cache in memory
// (issue 20 point 6): Open checks the state directory and the database's
// header, and the database itself is opened, and its schema migrated, by
// the first use.
func TestOpenWritesNothingUntilFirstUse(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state", "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
		t.Fatalf("after Open the database is %v (err %v), want an empty file", fi, err)
	}
	if _, err := os.Stat(path + "-wal"); !os.IsNotExist(err) {
		t.Fatalf("after Open the WAL exists (err %v): the database was opened", err)
	}
	select {
	case <-s.Opened():
		t.Fatal("Opened is closed before any use")
	default:
	}
	h, err := s.PutHandle(ctx, "t", nil, []byte("one\ntwo\n"))
	if err != nil {
		t.Fatalf("first use: %v", err)
	}
	select {
	case <-s.Opened():
	default:
		t.Fatal("Opened is still open after the first use")
	}
	sl, err := s.ReadHandle(ctx, h.ID, 1, 1, Lines)
	if err != nil || sl.Content != "two\n" {
		t.Fatalf("ReadHandle = %q, %v", sl.Content, err)
	}
	var version int
	if err := s.db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil || version != len(migrations) {
		t.Errorf("schema version after first use = %d (err %v), want %d", version, err, len(migrations))
	}
}

// A newer schema version still stops start-up when it is only in the WAL
// of a server that did not close (the header of the database file is then
// stale): Open opens the database at once in that case.
func TestOpenRefusesNewerSchemaLeftInTheWAL(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	s.ckpt.close() // the newer version must stay in the WAL until the copy
	conn, err := s.db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	for _, q := range []string{`PRAGMA wal_autocheckpoint = 0`, `PRAGMA user_version = 99`} {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// Copy the files while the connection still holds them, as a crash
	// would leave them.
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
	if v, err := headerVersion(filepath.Join(copyDir, "hostmcp.db")); err != nil || v == 99 {
		t.Fatalf("the copied header says version %d (err %v): the test needs it stale", v, err)
	}
	s2, err := Open(ctx, &Options{Path: filepath.Join(copyDir, "hostmcp.db")})
	if err == nil {
		s2.Close()
		t.Fatal("Open of a newer schema left in the WAL succeeded")
	}
	if !strings.Contains(err.Error(), "newer") {
		t.Errorf("error %q does not say the schema is newer", err)
	}
}

// A state file that is not a SQLite database stops start-up, as it did
// when Open migrated the schema at once.
func TestOpenRefusesAFileThatIsNotADatabase(t *testing.T) {
	tests := []struct {
		name    string
		content string
	}{
		{"text", strings.Repeat("not a database\n", 20)},
		{"short", "SQLite format 3\x00"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "hostmcp.db")
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			s, err := Open(context.Background(), &Options{Path: path})
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), "not a SQLite database") && !strings.Contains(err.Error(), "not a database") {
				t.Errorf("error %q does not say the file is not a database", err)
			}
		})
	}
}

// The sweeper does not open the database, and sweeps what a previous run
// left once the first use has opened it.
func TestSweeperSweepsTheBacklogAtFirstUse(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	old := openTest(t, &Options{Path: path, Now: clk.Now})
	if _, err := old.PutHandle(ctx, "t", nil, []byte("left behind\n")); err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * DefaultHandleTTL)

	s := openTest(t, &Options{Path: path, Now: clk.Now})
	sweepCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); s.RunSweeper(sweepCtx, time.Hour) }()
	t.Cleanup(func() { stop(); <-done })

	if _, err := s.PutHandle(ctx, "t", nil, []byte("new\n")); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		var n int
		if err := s.db.QueryRowContext(ctx, `SELECT COUNT(*) FROM handles`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		if n == 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d handles 30 s after the first use, want the expired one swept", n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// The first use of a new store may come from many goroutines at once (a
// burst of calls right after start-up): every one of them gets the
// database, none SQLITE_BUSY from a connection opened while the first was
// turning the file to WAL mode and writing the schema. Repeated on fresh
// stores, since the race is at the first use only.
func TestFirstUseFromManyGoroutines(t *testing.T) {
	ctx := context.Background()
	for round := range 40 {
		s := openTest(t, nil)
		var wg sync.WaitGroup
		errs := make(chan error, 8)
		for w := range 8 {
			wg.Go(func() {
				if _, err := s.PutHandle(ctx, "first", map[string]any{"w": w}, []byte("line\n")); err != nil {
					errs <- err
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatalf("round %d: %v", round, err)
		}
	}
}
