package system

import (
	"cmp"
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

type logsIn struct {
	Lines    int    `json:"lines,omitempty" jsonschema:"entries to return, the newest, oldest first; 1 to 1000; default 100"`
	Unit     string `json:"unit,omitempty" jsonschema:"only this systemd unit, e.g. nginx.service; in log files, lines whose program is nginx"`
	Priority string `json:"priority,omitempty" jsonschema:"journal only: this priority and more severe, one of emerg, alert, crit, err, warning, notice, info, debug"`
	Since    string `json:"since,omitempty" jsonschema:"only entries from this long ago until now, a duration like 30m or 2h, at most 720h"`
	Grep     string `json:"grep,omitempty" jsonschema:"only messages matching this regular expression (RE2 syntax, case-insensitive), at most 256 bytes"`
	File     string `json:"file,omitempty" jsonschema:"without a journal: which allowlisted log file to read; default the first that exists"`
}

// logEntry is one journal entry or log line.
type logEntry struct {
	Time       string `json:"time,omitempty" jsonschema:"RFC 3339; absent when a log line carries no time hostmcp can read"`
	Priority   string `json:"priority,omitempty" jsonschema:"journal only: emerg ... debug"`
	Unit       string `json:"unit,omitempty"`
	Identifier string `json:"identifier,omitempty" jsonschema:"the program that logged it (syslog identifier)"`
	PID        int    `json:"pid,omitempty"`
	Message    string `json:"message" jsonschema:"cut to 2000 bytes"`
}

type logsOut struct {
	Source         string     `json:"source" jsonschema:"journal, or file when the host has no journal"`
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
}

const (
	defaultLogLines = 100
	maxLogLines     = 1000
	maxSince        = 720 * time.Hour
	maxMessage      = 2000
)

var (
	priorities = []string{"emerg", "alert", "crit", "err", "warning", "notice", "info", "debug"}
	unitName   = regexp.MustCompile(`^[A-Za-z0-9:_.@\\-]{1,256}$`)
)

func (s *Set) logs() *tool.Def {
	return tool.New(tool.Spec{
		Name:         "sys_logs",
		Kind:         tool.ReadOnly,
		Title:        "System logs",
		Description:  "The newest system log entries from the journal (journalctl), filtered by unit, priority, age and a regex; where there is no journal, the tail of allowlisted log files.",
		Timeout:      10 * time.Second,
		OffByDefault: true, // logs hold user names, addresses and secrets: spec 002 section 5.3.2
	}, s.handleLogs).WithEnum("priority", "emerg", "alert", "crit", "err", "warning", "notice", "info", "debug").
		WithRange("lines", 1, maxLogLines)
}

func (s *Set) handleLogs(ctx context.Context, call *tool.Call, in logsIn) (logsOut, error) {
	q, err := parseLogQuery(&in, time.Now())
	if err != nil {
		return logsOut{}, err
	}
	if s.hasJournal() && s.deps.Exec != nil && s.deps.Exec.Available("journalctl") {
		if q.file != "" {
			call.Warn("file is ignored: this host has a journal, which sys_logs reads instead")
		}
		return s.journal(ctx, q)
	}
	return s.tailFiles(ctx, call, q)
}

func parseLogQuery(in *logsIn, now time.Time) (*logQuery, error) {
	q := &logQuery{lines: cmp.Or(in.Lines, defaultLogLines), priority: -1, file: in.File}
	if q.lines < 1 || q.lines > maxLogLines {
		return nil, tool.Errorf(tool.InvalidArgument, "lines %d: want 1 to %d", q.lines, maxLogLines)
	}
	if in.Unit != "" {
		if !unitName.MatchString(in.Unit) {
			return nil, tool.Errorf(tool.InvalidArgument, "unit %q: want a unit name such as nginx.service", in.Unit)
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
			return nil, tool.Errorf(tool.InvalidArgument, "priority %q: want one of %s", in.Priority, strings.Join(priorities, ", "))
		}
	}
	if in.Since != "" {
		d, err := time.ParseDuration(in.Since)
		if err != nil || d <= 0 || d > maxSince {
			return nil, tool.Errorf(tool.InvalidDuration, "since %q: want a positive duration up to %s, like 30m or 2h", in.Since, maxSince)
		}
		q.since = now.Add(-d)
	}
	if in.Grep != "" {
		if len(in.Grep) > 256 {
			return nil, tool.Errorf(tool.InvalidArgument, "grep: %d bytes; at most 256", len(in.Grep))
		}
		re, err := regexp.Compile("(?i)" + in.Grep)
		if err != nil {
			return nil, tool.Errorf(tool.InvalidArgument, "grep %q: not a regular expression: %v", in.Grep, err)
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
