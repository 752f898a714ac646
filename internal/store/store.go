// Package store keeps hostmcp's state in one SQLite database: handles (large
// results paged later by lines or bytes), call records for the stats tools,
// and the sweeper that applies TTLs and the byte budget.
//
// The driver is modernc.org/sqlite (pure Go, so the binary stays static);
// the database runs in WAL mode so readers never wait for the writer.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Defaults applied by Open when an Options field is zero.
const (
	DefaultHandleTTL    = time.Hour
	DefaultHandleBudget = 256 << 20
	DefaultMaxCalls     = 100_000
)

// Options configures Open. A nil *Options is not allowed: Path is required.
type Options struct {
	Path         string           // database file; its directory is created 0700 if missing
	HandleTTL    time.Duration    // how long a handle stays readable; default 1h
	HandleBudget int64            // total payload bytes kept, default 256 MiB; oldest evicted first
	MaxCalls     int              // call records kept by Sweep; default 100,000
	Now          func() time.Time // nil = time.Now (tests inject a clock)
	Logger       *slog.Logger     // sweeper failures; nil discards them
}

// Store is the state database. It is safe for concurrent use: database/sql
// pools the connections, WAL lets reads run beside the single writer, and
// every write transaction starts IMMEDIATE so two writers queue on the busy
// timeout instead of failing a lock upgrade.
type Store struct {
	db       *sql.DB
	ttl      time.Duration
	budget   int64
	maxCalls int
	now      func() time.Time
	log      *slog.Logger
	calls    *callQueue // the background writer of call records
	ckpt     *checkpointer
	pending  *pendingHandles // handles given out, written after the answer
	ids      *idCheck        // whether a committed handle has an ID (reserveID)
	ahead    aheadIDs        // IDs checked ahead (CheckIDAhead)
	// connector opens the database at its first use; see lazy.go.
	connector *migratingConnector
}

// Open prepares the database at opts.Path: it creates the file if needed
// and refuses what cannot be used (see checkStateFile); the database is
// opened, and its schema migrated, by the first use (see lazy.go). The file
// and its WAL are private to the user (0600): handles hold command output,
// which can be sensitive.
func Open(ctx context.Context, opts *Options) (*Store, error) {
	if opts == nil || opts.Path == "" {
		return nil, fmt.Errorf("opening the store: no database path given")
	}
	if strings.ContainsAny(opts.Path, "?#") {
		// The driver splits its DSN at '?'; such a path would open another file.
		return nil, fmt.Errorf("opening the store: database path %q must not contain '?' or '#'", opts.Path)
	}
	s := &Store{
		ttl:      opts.HandleTTL,
		budget:   opts.HandleBudget,
		maxCalls: opts.MaxCalls,
		now:      opts.Now,
		log:      opts.Logger,
	}
	if s.ttl <= 0 {
		s.ttl = DefaultHandleTTL
	}
	if s.budget <= 0 {
		s.budget = DefaultHandleBudget
	}
	if s.maxCalls <= 0 {
		s.maxCalls = DefaultMaxCalls
	}
	if s.now == nil {
		s.now = time.Now
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.pending = newPendingHandles(s.now)
	if err := prepareFile(opts.Path); err != nil {
		return nil, err
	}
	headerTrusted, err := checkStateFile(opts.Path)
	if err != nil {
		return nil, fmt.Errorf("opening the store: %w", err)
	}
	// The hook runs only once a statement opens a connection, after s.ckpt is set.
	if s.connector, err = newMigratingConnector(dsn(opts.Path), func() { s.ckpt.committed() }); err != nil {
		return nil, fmt.Errorf("opening the store %s: %w", opts.Path, err)
	}
	db := sql.OpenDB(s.connector) // connects, and migrates, at the first use: see lazy.go
	// A few connections are plenty for SQLite; each one carries its own page cache.
	db.SetMaxOpenConns(8)
	db.SetMaxIdleConns(4)
	s.db = db
	s.ids = &idCheck{db: db}
	s.ckpt = newCheckpointer(db, s.log)
	if !headerTrusted {
		if err := db.PingContext(ctx); err != nil {
			s.ckpt.close()
			db.Close()
			return nil, fmt.Errorf("opening the store %s: %w", opts.Path, err)
		}
	}
	s.calls = newCallQueue(s.insertCalls, s.log)
	return s, nil
}

// Close writes the handles and call records still pending, then releases
// the database (its last connection checkpoints the WAL). Handles stay on
// disk until they expire.
func (s *Store) Close() error {
	s.pending.close()
	s.calls.close()
	s.ckpt.close()
	return errors.Join(s.ids.close(), s.db.Close())
}

// dsn builds the driver's data source name. The pragmas run on every new
// pooled connection, which is why they live here and not in migrate. No
// connection checkpoints the WAL at its commits: the store does, off the
// calls' path (checkpoint.go).
func dsn(path string) string {
	q := url.Values{}
	for _, p := range []string{"busy_timeout(5000)", "journal_mode(WAL)", "synchronous(NORMAL)", "foreign_keys(1)", "wal_autocheckpoint(0)"} {
		q.Add("_pragma", p)
	}
	q.Set("_txlock", "immediate")
	return path + "?" + q.Encode()
}

// prepareFile creates the state directory (0700) and the database file
// (0600) before SQLite does, because SQLite would create it with 0644 minus
// the umask, and its -wal and -shm files copy the database file's mode.
func prepareFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating the state directory %s: %w", dir, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("creating the database %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("checking the database %s: %w", path, err)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			return fmt.Errorf("restricting the database %s to its owner: %w", path, err)
		}
	}
	return nil
}
