package store

import (
	"context"
	"database/sql/driver"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"golang.org/x/sys/unix"
	"modernc.org/sqlite"
)

// Why the database is opened by its first use rather than by Open: SQLite's
// code (about 2 MiB, run by no other part of hostmcp), its page cache and
// its C heap are then in memory only in a server that stores or reads
// something; a server that was started and listed its tools, then sat idle,
// holds about 3 MiB less (issue 20 point 6, bench/RESULTS.md). What start-up
// refused before it still refuses, from the file system and the file's
// header: see checkStateFile.

// migratingConnector hands database/sql its connections, and migrates the
// schema on the first one it opens. database/sql opens no connection until
// a statement needs one, so the store touches SQLite at its first use.
type migratingConnector struct {
	inner driver.Connector

	mu       sync.Mutex
	migrated bool
	opened   chan struct{} // closed once the schema is migrated

	// commitHook is every connection's commit hook (see checkpoint.go):
	// one function for all, since the driver keeps it by connection
	// address, even after the connection closes.
	commitHook sqlite.CommitHookFn
}

// Connect opens a connection; the first one to succeed migrates the
// schema before any statement runs on it, and one that fails to leaves the
// next to try again. Until then no other connection is opened: the first
// one turns a new file to WAL mode and writes the schema, and a connection
// opened beside that (its own journal_mode pragma included) could meet a
// lock that SQLite's busy timeout does not wait out, and fail with
// SQLITE_BUSY where Open's migration used to run alone.
func (c *migratingConnector) Connect(ctx context.Context) (driver.Conn, error) {
	c.mu.Lock()
	if c.migrated {
		c.mu.Unlock()
		return c.hooked(c.inner.Connect(ctx))
	}
	defer c.mu.Unlock()
	conn, err := c.inner.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if err := migrate(ctx, conn); err != nil {
		conn.Close()
		return nil, err
	}
	conn, err = c.hooked(conn, nil)
	if err != nil {
		return nil, err
	}
	c.migrated = true
	close(c.opened)
	return conn, nil
}

// hooked registers the commit hook on a new connection. A driver without
// commit hooks is refused rather than served: its WAL would never be
// checkpointed before the store closes.
func (c *migratingConnector) hooked(conn driver.Conn, err error) (driver.Conn, error) {
	if err != nil || c.commitHook == nil {
		return conn, err
	}
	h, ok := conn.(interface{ RegisterCommitHook(sqlite.CommitHookFn) })
	if !ok {
		conn.Close()
		return nil, fmt.Errorf("the SQLite driver's connection takes no commit hook")
	}
	// modernc keeps a hook in a map by connection that a closed
	// connection does not leave: every connection shares this one
	// function, so what stays behind is an entry per address reused.
	h.RegisterCommitHook(c.commitHook)
	return conn, nil
}

// Driver is the SQLite driver.
func (c *migratingConnector) Driver() driver.Driver { return c.inner.Driver() }

func newMigratingConnector(dsn string, onCommit func()) (*migratingConnector, error) {
	inner, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	c := &migratingConnector{inner: inner, opened: make(chan struct{})}
	if onCommit != nil {
		c.commitHook = func() int32 {
			onCommit()
			return 0 // 0 lets the commit go on
		}
	}
	return c, nil
}

// Opened is closed once the database has been opened and its schema
// migrated, by the store's first use. The sweeper waits for it: a store
// never used has nothing new to sweep, and what a previous run left is
// swept at the first use.
func (s *Store) Opened() <-chan struct{} { return s.connector.opened }

// SQLite's database header (https://www.sqlite.org/fileformat2.html,
// section 1.3): 100 bytes, the magic string first, the user version (our
// schema version) at offset 60, big-endian.
const (
	headerSize        = 100
	headerMagic       = "SQLite format 3\x00"
	headerUserVersion = 60
)

// checkStateFile is what start-up refuses without opening the database: a
// state directory this process cannot write (SQLite creates its WAL
// beside the database), a file that is not a SQLite database, and one whose
// schema is newer than this hostmcp knows. It reports whether the header
// can be trusted: a WAL left by a server that did not close may hold a
// newer page with the schema version, and Open then opens the database at
// once, which reads it.
func checkStateFile(path string) (headerTrusted bool, err error) {
	dir := filepath.Dir(path)
	if err := unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK, unix.AT_EACCESS); err != nil {
		return false, fmt.Errorf("the state directory %s is not writable: %w", dir, err)
	}
	version, err := headerVersion(path)
	if err != nil {
		return false, err
	}
	if version > len(migrations) {
		return false, newerSchemaError(version)
	}
	wal, err := os.Stat(path + "-wal")
	switch {
	case errors.Is(err, os.ErrNotExist):
		return true, nil
	case err != nil:
		return false, fmt.Errorf("checking the database's WAL %s-wal: %w", path, err)
	}
	return wal.Size() == 0, nil
}

// headerVersion reads the schema version from the database file's header;
// an empty file (a new state directory) is version 0.
func headerVersion(path string) (int, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, fmt.Errorf("reading the database %s: %w", path, err)
	}
	defer f.Close()
	var h [headerSize]byte
	n, err := io.ReadFull(f, h[:])
	switch {
	case n == 0 && err == io.EOF:
		return 0, nil
	case errors.Is(err, io.ErrUnexpectedEOF) || (err == nil && string(h[:len(headerMagic)]) != headerMagic):
		return 0, fmt.Errorf("%s is not a SQLite database: move it away, or use another --state-dir", path)
	case err != nil:
		return 0, fmt.Errorf("reading the database %s: %w", path, err)
	}
	return int(binary.BigEndian.Uint32(h[headerUserVersion:])), nil
}

func newerSchemaError(version int) error {
	return fmt.Errorf("the database has schema version %d, newer than this hostmcp knows (%d); use a newer hostmcp or another --state-dir", version, len(migrations))
}
