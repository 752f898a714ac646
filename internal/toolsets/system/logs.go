package system

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

type logsIn struct {
	Source   string `json:"source,omitempty" jsonschema:"default journal, else a log file, else kernel (dmesg)"`
	Lines    int    `json:"lines,omitempty" jsonschema:"newest entries" default:"100"`
	Unit     string `json:"unit,omitempty" jsonschema:"systemd unit (in log files, the program)"`
	Priority string `json:"priority,omitempty" jsonschema:"this level or worse"`
	Since    string `json:"since,omitempty" jsonschema:"duration back from now, e.g. 30m, at most 720h"`
	Grep     string `json:"grep,omitempty" jsonschema:"RE2 regex, any case"`
	File     string `json:"file,omitempty" jsonschema:"allowlisted log file, with source file"`
}

// logEntry is one journal entry or log line.
type logEntry struct {
	Time       string `json:"time,omitempty" jsonschema:"RFC 3339; absent when a log line carries no time hostmcp can read"`
	Priority   string `json:"priority,omitempty" jsonschema:"journal and kernel log: emerg ... debug"`
	Unit       string `json:"unit,omitempty"`
	Identifier string `json:"identifier,omitempty" jsonschema:"the program that logged it (syslog identifier)"`
	PID        int    `json:"pid,omitempty"`
	Message    string `json:"message" jsonschema:"cut to 2000 bytes"`
}

type logsOut struct {
	Source         string     `json:"source" jsonschema:"journal, file or kernel: where the entries come from"`
	File           string     `json:"file,omitempty" jsonschema:"the log file read, when source is file"`
	FilesAvailable []string   `json:"files_available,omitempty" jsonschema:"allowlisted log files that exist here"`
	Entries        []logEntry `json:"entries"`
	Scanned        int        `json:"scanned" jsonschema:"entries or lines examined"`
	Truncated      bool       `json:"truncated" jsonschema:"true when more entries matched than lines"`
}

// logQuery is logsIn validated.
type logQuery struct {
	lines    int
	unit     string // as given: nginx.service
	program  string // the unit without its type: nginx
	priority int    // -1: any
	since    time.Time
	grep     *regexp.Regexp
	file     string
	source   string // journal, file, kernel; empty: the first the host has
}

const (
	defaultLogLines = 100
	maxLogLines     = 1000
	maxSince        = 720 * time.Hour
	maxMessage      = 2000
	// maxGrep bounds grep: a filter, not a program.
	maxGrep = 256
)

var (
	priorities = []string{"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"}
	logSources = []string{"journal", "file", "kernel"}
	// unitName is systemd's character set; the length (1 to
	// maxUnitPattern) is checked apart: a counted repetition compiles to
	// 256 copies of the class, 3,000 allocations at every start-up.
	unitName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z0-9:_.@\\-]+$`) })
)

func (s *Set) logs() *tool.Def {
	return tool.New(tool.Spec{
		Name:         "sys_logs",
		Kind:         tool.ReadOnly,
		Programs:     true,
		Title:        "System logs",
		Description:  "Newest log entries from the journal by unit, priority, age and regex; else allowlisted log files or dmesg.",
		Timeout:      10 * time.Second,
		OffByDefault: true, // logs hold user names, addresses and secrets: spec 002 section 5.3.2
	}, s.handleLogs).WithEnum("source", "journal", "file", "kernel").WithEnum("priority", "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug").
		WithRange("lines", 1, maxLogLines).WithMaxLength("grep", maxGrep).WithMaxLength("unit", maxUnitPattern)
}

func (s *Set) handleLogs(ctx context.Context, call *tool.Call, in logsIn) (logsOut, error) {
	q, err := parseLogQuery(&in, time.Now())
	if err != nil {
		return logsOut{}, err
	}
	if q.file != "" && q.source != "file" {
		call.Warn("file is ignored with source %s", q.source)
	}
	journal := s.hasJournal() && s.deps.Exec != nil && s.deps.Exec.Available("journalctl")
	switch {
	case q.source == "journal" && !journal:
		return logsOut{}, tool.Errorf(tool.CapabilityMissing, "this host has no systemd journal that journalctl can read").
			WithSuggestion("Use source file or kernel, or leave source out to read what the host has.")
	case q.source == "journal" || q.source == "" && journal:
		return s.journal(ctx, q)
	case q.source == "kernel":
		return s.kernelLog(ctx, call, q)
	}
	avail := s.logFilesAvailable()
	if q.source == "" && len(avail) == 0 {
		call.Warn("this host has no journal and none of the allowlisted log files: reading the kernel log")
		return s.kernelLog(ctx, call, q)
	}
	return s.tailFiles(ctx, call, q, avail)
}

func parseLogQuery(in *logsIn, now time.Time) (*logQuery, error) {
	q := &logQuery{lines: cmp.Or(in.Lines, defaultLogLines), priority: -1, file: in.File, source: in.Source}
	if q.source != "" && !slices.Contains(logSources, q.source) {
		return nil, tool.Errorf(tool.InvalidArgument, "source %q: want one of %s", tool.Clip(in.Source), strings.Join(logSources, ", "))
	}
	if q.file != "" && q.source == "" {
		q.source = "file"
	}
	if q.lines < 1 || q.lines > maxLogLines {
		return nil, tool.Errorf(tool.InvalidArgument, "lines %d: want 1 to %d", q.lines, maxLogLines)
	}
	if in.Unit != "" {
		if len(in.Unit) > maxUnitPattern || !unitName().MatchString(in.Unit) {
			return nil, tool.Errorf(tool.InvalidArgument, "unit %q: want a unit name such as nginx.service", tool.Clip(in.Unit))
		}
		q.unit = in.Unit
		q.program = in.Unit
		if i := strings.LastIndexByte(in.Unit, '.'); i > 0 {
			q.program = in.Unit[:i]
		}
	}
	if in.Priority != "" {
		q.priority = slices.Index(priorities, in.Priority)
		if q.priority < 0 {
			return nil, tool.Errorf(tool.InvalidArgument, "priority %q: want one of %s", tool.Clip(in.Priority), strings.Join(priorities, ", "))
		}
	}
	if in.Since != "" {
		d, err := time.ParseDuration(in.Since)
		if err != nil || d <= 0 || d > maxSince {
			return nil, tool.Errorf(tool.InvalidDuration, "since %q: want a positive duration up to %s, like 30m or 2h", tool.Clip(in.Since), maxSince)
		}
		q.since = now.Add(-d)
	}
	if in.Grep != "" {
		if len(in.Grep) > maxGrep {
			return nil, tool.Errorf(tool.InvalidArgument, "grep: %d bytes; at most %d", len(in.Grep), maxGrep)
		}
		re, err := tool.CompileRegexp("grep", in.Grep, "i")
		if err != nil {
			return nil, err
		}
		q.grep = re
	}
	return q, nil
}

// cutMessage bounds one message, keeping it valid UTF-8.
func cutMessage(m string) string {
	m = strings.TrimRight(m, "\n")
	if len(m) > maxMessage {
		m = strings.ToValidUTF8(m[:maxMessage], "") + "…"
	}
	return m
}

// ring keeps the newest n entries of a stream, oldest first.
type ring struct {
	n       int
	buf     []logEntry
	next    int // where the next entry goes once buf is full
	matched int
}

func (r *ring) add(e logEntry) {
	r.matched++
	if len(r.buf) < r.n {
		r.buf = append(r.buf, e)
		return
	}
	r.buf[r.next] = e
	r.next = (r.next + 1) % r.n
}

// out returns the kept entries in order, and whether older ones were dropped.
func (r *ring) out() ([]logEntry, bool) {
	out := append(append([]logEntry{}, r.buf[r.next:]...), r.buf[:r.next]...)
	return out, r.matched > len(out)
}

func priorityName(p int) string {
	if p >= 0 && p < len(priorities) {
		return priorities[p]
	}
	return fmt.Sprint(p)
}
