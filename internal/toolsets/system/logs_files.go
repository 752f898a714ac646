package system

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// maxTailBytes bounds what is read from the end of a log file: enough for
// thousands of lines, never the whole of a multi-gigabyte syslog.
const maxTailBytes = 4 << 20

// tailFiles answers from the allowlisted log files when there is no
// journal. Only the operator's list can be read; the agent picks among it.
func (s *Set) tailFiles(ctx context.Context, call *tool.Call, q *logQuery, avail []string) (logsOut, error) {
	out := logsOut{Source: "file", FilesAvailable: avail}
	if q.file != "" && !slices.Contains(s.deps.LogFiles, q.file) {
		return logsOut{}, tool.Errorf(tool.InvalidArgument, "file %q is not an allowlisted log file; allowed: %s", tool.Clip(q.file), strings.Join(s.deps.LogFiles, ", ")).
			WithSuggestion("Leave file out, or pick one of files_available; the operator sets the list in [process] log_files.")
	}
	out.File = q.file
	if out.File == "" {
		if len(avail) == 0 {
			return logsOut{}, tool.Errorf(tool.CapabilityMissing, "none of the allowlisted log files exists (%s)", strings.Join(s.deps.LogFiles, ", ")).
				WithSuggestion("Use source kernel for the kernel log; the operator can list the host's log files in [process] log_files.")
		}
		out.File = avail[0]
	}
	if q.priority >= 0 {
		call.Warn("priority is ignored: plain log files carry no priority")
	}
	data, partial, err := readTail(out.File, maxTailBytes)
	if err != nil {
		return logsOut{}, err
	}
	if partial {
		call.Warn("only the last %d bytes of %s were read", maxTailBytes, out.File)
	}
	r := &ring{n: q.lines}
	now := time.Now()
	undated := 0
	for len(data) > 0 {
		if err := ctx.Err(); err != nil {
			return logsOut{}, err
		}
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line, data = data[:i], data[i+1:]
		} else {
			data = nil
		}
		if len(line) == 0 {
			continue
		}
		out.Scanned++
		e := parseSyslogLine(string(line), now)
		if q.program != "" && !strings.EqualFold(e.Identifier, q.program) && !strings.EqualFold(e.Identifier, q.unit) {
			continue
		}
		if !q.since.IsZero() {
			t, err := time.Parse(time.RFC3339Nano, e.Time)
			if err != nil {
				undated++
				continue
			}
			if t.Before(q.since) {
				continue
			}
		}
		if q.grep != nil && !q.grep.MatchString(e.Message) {
			continue
		}
		r.add(e)
	}
	if undated > 0 {
		call.Warn("%d lines without a readable time were left out by since", undated)
	}
	out.Entries, out.Truncated = r.out()
	return out, nil
}

// logFilesAvailable lists the allowlisted log files that exist here.
func (s *Set) logFilesAvailable() []string {
	var avail []string
	for _, f := range s.deps.LogFiles {
		if fi, err := os.Lstat(f); err == nil && fi.Mode().IsRegular() {
			avail = append(avail, f)
		}
	}
	return avail
}

// readTail reads at most limit bytes from the end of path, starting at a
// line boundary. The file must be a regular file reached without a final
// symlink: a FIFO would block and a link could be swapped to point
// elsewhere.
func readTail(path string, limit int64) ([]byte, bool, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0)
	switch {
	case errors.Is(err, syscall.ELOOP):
		return nil, false, tool.Errorf(tool.NotAFile, "%s is a symbolic link; list its target in [process] log_files instead", path)
	case errors.Is(err, os.ErrNotExist):
		return nil, false, tool.Errorf(tool.NotFound, "%s does not exist on this host", path).
			WithSuggestion("Pick one of files_available, or leave file out.")
	case errors.Is(err, os.ErrPermission):
		return nil, false, tool.Wrap(tool.PermissionDenied, err, "%s is not readable by this server", path)
	case err != nil:
		return nil, false, tool.Wrap(tool.ExecutionFailed, err, "opening %s: %v", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, tool.Wrap(tool.ExecutionFailed, err, "%v", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, false, tool.Errorf(tool.NotAFile, "%s is not a regular file", path)
	}
	start := max(fi.Size()-limit, 0)
	buf := make([]byte, fi.Size()-start)
	n, err := f.ReadAt(buf, start)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, tool.Wrap(tool.ExecutionFailed, err, "reading %s: %v", path, err)
	}
	buf = buf[:n]
	if start > 0 { // drop the line the window starts inside
		if i := bytes.IndexByte(buf, '\n'); i >= 0 {
			buf = buf[i+1:]
		}
	}
	return buf, start > 0, nil
}

// parseSyslogLine reads the traditional syslog line of rsyslog and
// syslog-ng, "TIME HOST TAG[PID]: MESSAGE", where TIME is RFC 3339 (rsyslog's
// high-precision format, Debian 12's default) or RFC 3164's "Jan _2
// 15:04:05" without a year (taken as the latest such time not after now).
// A line it cannot read is kept whole as the message.
func parseSyslogLine(line string, now time.Time) logEntry {
	e := logEntry{Message: cutMessage(line)}
	rest := line
	var t time.Time
	if sp := strings.IndexByte(rest, ' '); sp > 0 {
		if ts, err := time.Parse(time.RFC3339Nano, rest[:sp]); err == nil {
			t, rest = ts, rest[sp+1:]
		}
	}
	if t.IsZero() && len(rest) > 16 && rest[15] == ' ' {
		if ts, err := time.ParseInLocation(time.Stamp, rest[:15], now.Location()); err == nil {
			t = ts.AddDate(now.Year(), 0, 0)
			if t.After(now.Add(24 * time.Hour)) { // December's lines read in January
				t = t.AddDate(-1, 0, 0)
			}
			rest = rest[16:]
		}
	}
	if t.IsZero() {
		return e
	}
	e.Time = t.UTC().Format(time.RFC3339Nano)
	host, rest, ok := strings.Cut(rest, " ")
	if !ok || host == "" {
		return e
	}
	id, pid, msg, ok := splitTag(rest)
	if !ok {
		e.Message = cutMessage(rest)
		return e
	}
	e.Identifier, e.PID, e.Message = id, pid, cutMessage(msg)
	return e
}

// splitTag splits syslog's "TAG[PID]: MESSAGE" (or "TAG: MESSAGE") into the
// program, its pid (0 when absent) and the message.
func splitTag(s string) (ident string, pid int, msg string, ok bool) {
	tag, msg, ok := strings.Cut(s, ": ")
	if !ok || tag == "" || strings.ContainsAny(tag, " ") {
		return "", 0, s, false
	}
	ident = tag
	if i := strings.IndexByte(tag, '['); i > 0 && strings.HasSuffix(tag, "]") {
		ident = tag[:i]
		pid, _ = strconv.Atoi(tag[i+1 : len(tag)-1])
	}
	return ident, pid, msg, true
}
