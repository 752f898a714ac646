package store

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the call-record queue. A record is a few hundred bytes at most
// (the argument summary is capped at maxArgsSummary characters), so a full
// queue holds about 2 MiB.
const (
	callQueueSize  = 4096
	callBatchLimit = 256
	// callLinger is how long the writer waits for more records after the
	// first of a batch: calls one after another (an agent's loop) or at
	// once then share a transaction, whose commit is most of a record's
	// cost (BenchmarkRecordCalls: about 10 times less CPU a record in
	// batches of 16 than alone), and no call waits for it. It is also how
	// long a record may wait in memory, where a crash would lose it.
	callLinger = 20 * time.Millisecond
	// callWriteTimeout bounds one batch's write: the busy timeout (5 s)
	// plus the write itself.
	callWriteTimeout = 10 * time.Second
)

// DroppedCallsTool and DroppedCallsCode name the record that stands in the
// call records for records the full queue refused: the trail says where it
// has a gap and how large it is.
const (
	DroppedCallsTool = "hostmcp"
	DroppedCallsCode = "AUDIT_QUEUE_FULL"
)

// ErrCallQueueFull is returned by QueueCall when callQueueSize records are
// waiting: the record is dropped and counted (see DroppedCallsCode).
var ErrCallQueueFull = errors.New("the call-record queue is full")

// ErrClosed is returned for a call record offered after Close.
var ErrClosed = errors.New("the store is closed")

// callQueue writes call records from one goroutine, in batches of one
// transaction each, so that a call never waits for the database, nor for
// another call's record: SQLite has one writer, and a synchronous insert
// per call queued every call behind the others' inserts (and behind a
// handle being stored) on the busy timeout.
type callQueue struct {
	records chan CallRecord
	flushes chan chan struct{}
	stop    chan struct{}
	done    chan struct{}

	mu     sync.RWMutex // held for reading to enqueue, for writing to close
	closed bool

	dropped atomic.Int64 // refused by a full queue, not yet reported in a record
	stats   callQueueCounters
	write   func(context.Context, []CallRecord) error
	log     *slog.Logger
}

// callQueueCounters are what CallQueueStats reports.
type callQueueCounters struct {
	written, dropped, failed, batches atomic.Int64
	writeNanos                        atomic.Int64
}

// CallQueueStats says how the asynchronous writer of call records fares,
// for /metrics and the benchmarks: its share of the server's time, and any
// records lost.
type CallQueueStats struct {
	Queued    int           // waiting now
	Written   int64         // written since Open
	Dropped   int64         // refused by a full queue since Open
	Failed    int64         // lost to a failed write since Open (logged)
	Batches   int64         // transactions written since Open
	WriteTime time.Duration // spent writing batches since Open
}

func newCallQueue(write func(context.Context, []CallRecord) error, log *slog.Logger) *callQueue {
	q := &callQueue{
		records: make(chan CallRecord, callQueueSize),
		flushes: make(chan chan struct{}),
		stop:    make(chan struct{}),
		done:    make(chan struct{}),
		write:   write,
		log:     log,
	}
	go q.run()
	return q
}

// add queues r without waiting.
func (q *callQueue) add(r CallRecord) error {
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return ErrClosed
	}
	select {
	case q.records <- r:
		return nil
	default:
		q.dropped.Add(1)
		q.stats.dropped.Add(1)
		return ErrCallQueueFull
	}
}

// flush returns once every record queued before it was called is written
// (or its write failed), so that a reader of the call records sees the
// calls that came before it.
func (q *callQueue) flush(ctx context.Context) error {
	ack := make(chan struct{})
	select {
	case q.flushes <- ack:
	case <-q.done:
		return nil // closed: everything was written on the way out
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-ack:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// close stops taking records, writes every queued one and returns when
// they are on disk.
func (q *callQueue) close() {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		<-q.done
		return
	}
	q.closed = true
	q.mu.Unlock()
	close(q.stop)
	<-q.done
}

func (q *callQueue) run() {
	defer close(q.done)
	batch := make([]CallRecord, 0, callBatchLimit)
	for {
		select {
		case r := <-q.records:
			batch = q.writeBatch(q.linger(append(batch[:0], r)))
		case ack := <-q.flushes:
			q.drain(batch)
			close(ack)
		case <-q.stop:
			q.drain(batch)
			return
		}
	}
}

// linger adds to batch the records that come within callLinger, up to
// callBatchLimit; it returns early when the store closes.
func (q *callQueue) linger(batch []CallRecord) []CallRecord {
	t := time.NewTimer(callLinger)
	defer t.Stop()
	for len(batch) < callBatchLimit {
		select {
		case r := <-q.records:
			batch = append(batch, r)
		case <-t.C:
			return batch
		case <-q.stop:
			return batch
		}
	}
	return batch
}

// drain writes every record queued now.
func (q *callQueue) drain(batch []CallRecord) {
	for {
		select {
		case r := <-q.records:
			batch = q.writeBatch(append(batch[:0], r))
		default:
			if q.dropped.Load() > 0 {
				q.writeBatch(batch[:0])
			}
			return
		}
	}
}

// writeBatch adds to batch what else is queued, up to callBatchLimit, and
// the record of any dropped since the last batch, and writes it in one
// transaction. It returns batch's storage for the next one.
func (q *callQueue) writeBatch(batch []CallRecord) []CallRecord {
fill:
	for len(batch) < callBatchLimit {
		select {
		case r := <-q.records:
			batch = append(batch, r)
		default:
			break fill
		}
	}
	if n := q.dropped.Swap(0); n > 0 {
		q.log.Warn("call records dropped: the queue was full", "records", n, "queue", callQueueSize)
		batch = append(batch, CallRecord{
			Tool: DroppedCallsTool, Outcome: OutcomeError, ErrorCode: DroppedCallsCode,
			ArgsSummary: fmt.Sprintf("%d call records were dropped: the queue of %d waiting records was full", n, callQueueSize),
		})
	}
	if len(batch) == 0 {
		return batch
	}
	ctx, cancel := context.WithTimeout(context.Background(), callWriteTimeout)
	start := time.Now()
	err := q.write(ctx, batch)
	q.stats.writeNanos.Add(int64(time.Since(start)))
	cancel()
	q.stats.batches.Add(1)
	if err != nil {
		q.stats.failed.Add(int64(len(batch)))
		q.log.Error("call records lost: writing them failed", "records", len(batch), "err", err)
	} else {
		q.stats.written.Add(int64(len(batch)))
	}
	return batch[:0]
}

func (q *callQueue) snapshot() CallQueueStats {
	return CallQueueStats{
		Queued:    len(q.records),
		Written:   q.stats.written.Load(),
		Dropped:   q.stats.dropped.Load(),
		Failed:    q.stats.failed.Load(),
		Batches:   q.stats.batches.Load(),
		WriteTime: time.Duration(q.stats.writeNanos.Load()),
	}
}
