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

// clock is a settable time source for TTL tests.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func newClock() *clock {
	return &clock{t: time.Date(2026, 11, 22, 2, 45, 0, 0, time.UTC)}
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// openTest opens a store in a fresh temporary directory (unless opts names
// a path) and closes it when the test ends.
func openTest(t testing.TB, opts *Options) *Store {
	t.Helper()
	if opts == nil {
		opts = &Options{}
	}
	if opts.Path == "" {
		opts.Path = filepath.Join(t.TempDir(), "state", "hostmcp.db")
	}
	s, err := Open(context.Background(), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenPragmas(t *testing.T) {
	s := openTest(t, nil)
	ctx := context.Background()
	// Each connection of the pool must carry the pragmas; hold several at once.
	conns := make([]interface{ Close() error }, 0, 3)
	for range 3 {
		c, err := s.db.Conn(ctx)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		tests := []struct {
			pragma string
			want   string
		}{
			{"journal_mode", "wal"},
			{"synchronous", "1"},
			{"foreign_keys", "1"},
			{"busy_timeout", "5000"},
			{"wal_autocheckpoint", "0"}, // the store checkpoints: checkpoint.go
		}
		for _, tc := range tests {
			var got string
			if err := c.QueryRowContext(ctx, "PRAGMA "+tc.pragma).Scan(&got); err != nil {
				t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
			}
			if got != tc.want {
				t.Errorf("PRAGMA %s = %q, want %q", tc.pragma, got, tc.want)
			}
		}
	}
	for _, c := range conns {
		c.Close()
	}
}

func TestOpenPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	path := filepath.Join(dir, "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	if _, err := s.PutHandle(context.Background(), "t", nil, []byte("x")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want os.FileMode
	}{
		{dir, 0o700},
		{path, 0o600},
		{path + "-wal", 0o600},
	}
	for _, tc := range tests {
		fi, err := os.Stat(tc.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := fi.Mode().Perm(); got != tc.want {
			t.Errorf("mode of %s = %o, want %o", tc.path, got, tc.want)
		}
	}
}

func TestOpenTightensExistingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	openTest(t, &Options{Path: path})
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o600 {
		t.Errorf("mode = %o, want 600", got)
	}
}

func TestOpenErrors(t *testing.T) {
	tests := []struct {
		name string
		opts *Options
		want string
	}{
		{"nil options", nil, "no database path"},
		{"empty path", &Options{}, "no database path"},
		{"question mark", &Options{Path: filepath.Join(t.TempDir(), "a?b.db")}, "must not contain"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Open(context.Background(), tc.opts)
			if err == nil {
				s.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %q does not mention %q", err, tc.want)
			}
		})
	}
}

func TestOpenRefusesNewerSchema(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	if _, err := s.db.Exec(`PRAGMA user_version = 99`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s2, err := Open(context.Background(), &Options{Path: path})
	if err == nil {
		s2.Close()
		t.Fatal("Open of a newer schema succeeded")
	}
	if !strings.Contains(err.Error(), "newer") {
		t.Errorf("error %q does not say the schema is newer", err)
	}
}

func TestReopenKeepsHandles(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path, Now: clk.Now})
	h, err := s.PutHandle(ctx, "fs_read", map[string]any{"path": "/etc/hosts"}, []byte("one\ntwo\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	s = openTest(t, &Options{Path: path, Now: clk.Now})
	sl, err := s.ReadHandle(ctx, h.ID, 1, 10, Lines)
	if err != nil {
		t.Fatalf("ReadHandle after reopen: %v", err)
	}
	if got, want := sl.Content, "two\n"; got != want {
		t.Errorf("content = %q, want %q", got, want)
	}
	if got, want := sl.Handle.Meta["path"], "/etc/hosts"; got != want {
		t.Errorf("meta path = %v, want %v", got, want)
	}
	clk.Advance(DefaultHandleTTL)
	if _, err := s.ReadHandle(ctx, h.ID, 0, 0, Lines); err == nil {
		t.Error("handle still readable after its TTL across a reopen")
	}
}
