package system

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// kmsgRecordMax is more than the kernel's largest /dev/kmsg record (a
// message of up to 1 KiB, escaped, plus its dictionary): a read with a
// smaller buffer fails with EINVAL.
const kmsgRecordMax = 16 << 10

// kmsgMaxRecords bounds one read of the kernel log: the ring buffer holds
// far fewer, so only a flood of new messages arriving faster than they are
// read reaches it.
const kmsgMaxRecords = 200000

// kernelLog answers from the kernel's ring buffer, as dmesg does: on hosts
// with neither a journal nor a syslog daemon it is the only log there is,
// and it is where OOM kills, disk and file system errors, segfaults and
// hung tasks are told.
func (s *Set) kernelLog(ctx context.Context, call *tool.Call, q *logQuery) (logsOut, error) {
	if q.unit != "" {
		call.Warn("unit is ignored: the kernel log has no units")
	}
	// A raw descriptor, not an os.File: Go would park a read that meets
	// EAGAIN in its poller and wait for the next kernel message, where the
	// end of the buffer is what is wanted.
	fd, err := unix.Open(s.kmsgPath, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return logsOut{}, tool.Errorf(tool.CapabilityMissing, "%s does not exist: this host exposes no kernel log", s.kmsgPath).
			WithSuggestion("proc_list and sys_snapshot show the current state.")
	case errors.Is(err, os.ErrPermission):
		return logsOut{}, tool.Wrap(tool.PermissionDenied, err, "reading the kernel log needs CAP_SYSLOG (kernel.dmesg_restrict is set)").
			WithSuggestion("Run the server as root or grant it CAP_SYSLOG; meanwhile proc_list and sys_snapshot show the current state.")
	case err != nil:
		return logsOut{}, tool.Wrap(tool.ExecutionFailed, err, "opening %s: %v", s.kmsgPath, err)
	}
	defer unix.Close(fd)
	boot := monotonicEpoch()
	out := logsOut{Source: "kernel"}
	r := &ring{n: q.lines}
	buf := make([]byte, kmsgRecordMax)
	overwritten := false
	for read := 0; ; read++ {
		if read == kmsgMaxRecords {
			call.Warn("stopped after %d records: the kernel is logging faster than they can be read", kmsgMaxRecords)
			break
		}
		if err := ctx.Err(); err != nil {
			return logsOut{}, err
		}
		// Each read returns one record; EAGAIN says there are no more, and
		// EPIPE that records were overwritten before this reader got to
		// them (it then goes on with the oldest left).
		n, err := unix.Read(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if errors.Is(err, unix.EPIPE) {
			if !overwritten {
				call.Warn("the kernel overwrote some records before they were read")
				overwritten = true
			}
			continue
		}
		if errors.Is(err, unix.EAGAIN) || err == nil && n <= 0 {
			break
		}
		if err != nil {
			return logsOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading %s: %v", s.kmsgPath, err)
		}
		rec, ok := parseKmsgRecord(buf[:n], boot)
		if !ok {
			continue
		}
		out.Scanned++
		if q.priority >= 0 && rec.priority > q.priority || rec.at.Before(q.since) {
			continue
		}
		if q.grep != nil && !q.grep.MatchString(rec.entry.Message) {
			continue
		}
		r.add(rec.entry)
	}
	out.Entries, out.Truncated = r.out()
	return out, nil
}

// kmsgRecord is one kernel log record read.
type kmsgRecord struct {
	entry    logEntry
	at       time.Time
	priority int // 0 emerg ... 7 debug
}

// parseKmsgRecord reads one /dev/kmsg record: "PRI,SEQ,USEC,FLAGS;MESSAGE"
// then dictionary lines that start with a space. PRI holds the facility
// above its three priority bits: facility 0 is the kernel, any other a
// program that wrote to /dev/kmsg (systemd, say), which tags its message
// like syslog does. USEC is microseconds since boot on the monotonic clock,
// which boot turns into a wall time.
func parseKmsgRecord(rec []byte, boot time.Time) (kmsgRecord, bool) {
	head, body, ok := bytes.Cut(rec, []byte{';'})
	if !ok {
		return kmsgRecord{}, false
	}
	body, _, _ = bytes.Cut(body, []byte{'\n'})
	f := strings.SplitN(string(head), ",", 4)
	if len(f) < 3 {
		return kmsgRecord{}, false
	}
	pri, err1 := strconv.Atoi(f[0])
	usec, err2 := strconv.ParseInt(f[2], 10, 64)
	if err1 != nil || err2 != nil || pri < 0 || usec < 0 {
		return kmsgRecord{}, false
	}
	at := boot.Add(time.Duration(usec) * time.Microsecond).Round(time.Microsecond)
	r := kmsgRecord{at: at, priority: pri & 7}
	r.entry = logEntry{
		Time:       r.at.UTC().Format(time.RFC3339Nano),
		Priority:   priorityName(r.priority),
		Identifier: "kernel",
		Message:    cutMessage(string(body)),
	}
	if pri>>3 != 0 {
		r.entry.Identifier = ""
		if id, pid, msg, ok := splitTag(r.entry.Message); ok {
			r.entry.Identifier, r.entry.PID, r.entry.Message = id, pid, msg
		}
	}
	return r, true
}

// monotonicEpoch is the wall time at which the monotonic clock read zero:
// kernel log times count from there (suspended time excluded, as on that
// clock).
func monotonicEpoch() time.Time {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts); err != nil {
		return time.Now() // cannot happen on Linux; times would read as recent
	}
	return time.Now().Add(-time.Duration(ts.Nano()))
}
