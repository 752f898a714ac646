package store

import (
	"context"
	"database/sql"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Why the store checkpoints in the background. In WAL mode a commit
// appends its pages to hostmcp.db-wal, and a checkpoint copies them back
// into hostmcp.db (it reads the WAL, writes the database and fsyncs both).
// SQLite's own autocheckpoint runs it inside the commit that finds the WAL
// over 1,000 pages, so whichever call crossed the mark waited for it: a
// search keeping 1 MB of hits as a handle paid for one every fourth call,
// the put taking 20 to 30 ms of wall time where it takes 5 without
// (bench/RESULTS.md, "The cost of keeping a result as a handle"). The
// store's connections are opened with wal_autocheckpoint(0), and the
// checkpointer runs the checkpoint off every call's path: at once when the
// handles written since the last one reach checkpointBytes (the 1,000 pages
// autocheckpoint waited for), else checkpointDelay after the first commit
// since the last one.
//
// What a crash keeps does not change. A commit is in the WAL when it
// returns, so a server that is killed loses nothing it committed: the next
// one reads the WAL. synchronous(NORMAL) syncs the WAL only at checkpoints,
// as it did, so a power failure may lose the commits since the last one, as
// it could; now those are at most checkpointDelay old or checkpointBytes
// large, where a trickle of call records could wait for hours for a
// thousand pages.
const (
	checkpointBytes = 4 << 20
	checkpointDelay = time.Second
)

// checkpointer is the goroutine that checkpoints the WAL.
type checkpointer struct {
	db      *sql.DB
	log     *slog.Logger
	pending atomic.Int64  // handle bytes committed since the last checkpoint
	wake    chan struct{} // something is being committed (the hook)
	full    chan struct{} // checkpointBytes of handles were committed
	stop    chan struct{}
	done    chan struct{}
	once    sync.Once
	runs    atomic.Int64 // checkpoints run, for tests
}

func newCheckpointer(db *sql.DB, log *slog.Logger) *checkpointer {
	c := &checkpointer{db: db, log: log, wake: make(chan struct{}, 1), full: make(chan struct{}, 1),
		stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

// committed is the connections' commit hook: it runs inside SQLite's
// commit, before the commit's pages are in the WAL, so it only takes note.
func (c *checkpointer) committed() { notify(c.wake) }

// wroteHandle counts a committed handle's payload, which is most of what
// the WAL grows by; it runs once the commit has returned.
func (c *checkpointer) wroteHandle(n int) {
	if c.pending.Add(int64(n)) >= checkpointBytes {
		notify(c.full)
	}
}

func notify(ch chan struct{}) {
	select {
	case ch <- struct{}{}:
	default:
	}
}

func (c *checkpointer) run() {
	defer close(c.done)
	for {
		select {
		case <-c.stop:
			return
		case <-c.wake:
		case <-c.full:
		}
		again, ok := c.waitForWork()
		if !ok {
			return
		}
		c.pending.Store(0)
		if !c.checkpoint() || again {
			notify(c.wake) // one more pass, checkpointDelay from now
		}
	}
}

// waitForWork returns once a checkpoint is due: enough handle bytes, or
// checkpointDelay since the commit that woke it. again is true when a
// commit was noted meanwhile: its hook ran before its pages were written,
// so the checkpoint about to run may miss them, and a second pass follows.
// ok is false when the store closes meanwhile (closing the database
// checkpoints).
func (c *checkpointer) waitForWork() (again, ok bool) {
	t := time.NewTimer(checkpointDelay)
	defer t.Stop()
	for c.pending.Load() < checkpointBytes {
		select {
		case <-c.stop:
			return false, false
		case <-t.C:
			return again, true
		case <-c.wake:
			again = true
		case <-c.full:
		}
	}
	return again, true
}

// checkpoint copies what it can of the WAL into the database without
// waiting for anyone (PASSIVE): readers and the writer go on meanwhile, and
// what a reader still needs is copied by the next one.
// It reports false when a reader kept part of the WAL from being copied,
// which a pass a little later copies; a failure is logged and left to the
// next commit, not retried every second.
func (c *checkpointer) checkpoint() bool {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var busy, logFrames, copied int64
	err := c.db.QueryRowContext(ctx, `PRAGMA wal_checkpoint(PASSIVE)`).Scan(&busy, &logFrames, &copied)
	c.runs.Add(1)
	if err != nil {
		c.log.Warn("checkpointing the state store's WAL", "err", err)
		return true
	}
	return copied >= logFrames
}

// close ends the goroutine; the database's last connection checkpoints
// what is left when it closes.
func (c *checkpointer) close() {
	c.once.Do(func() { close(c.stop) })
	<-c.done
}
