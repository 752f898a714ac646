package system

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// maxJournalScan bounds the entries journalctl is asked for when a regex
// filters them here: the newest this many, whatever matches among them.
const maxJournalScan = 20000

// hasJournal reports whether any journal file exists where journalctl
// looks by default. Without one journalctl answers nothing, successfully.
func (s *Set) hasJournal() bool {
	for _, dir := range s.journalDirs {
		for _, pat := range []string{"*.journal", "*/*.journal"} {
			if m, _ := filepath.Glob(filepath.Join(dir, pat)); len(m) > 0 {
				return true
			}
		}
	}
	return false
}

// journalArgs builds journalctl's argv. Every value the agent chose sits
// inside a --flag=value argument, so none can be read as an option. dir,
// when set, is the one journal directory to read instead of the system's.
func journalArgs(q *logQuery, dir string) []string {
	n := q.lines
	if q.grep != nil {
		n = min(q.lines*50, maxJournalScan)
	}
	args := []string{"--no-pager", "--quiet", "--output=json",
		"--output-fields=MESSAGE,PRIORITY,_SYSTEMD_UNIT,SYSLOG_IDENTIFIER,_PID",
		"--lines=" + strconv.Itoa(n)}
	if dir != "" {
		args = append(args, "--directory="+dir)
	}
	if q.unit != "" {
		args = append(args, "--unit="+q.unit)
	}
	if q.priority >= 0 {
		args = append(args, "--priority="+strconv.Itoa(q.priority))
	}
	if !q.since.IsZero() {
		args = append(args, "--since=@"+strconv.FormatInt(q.since.Unix(), 10))
	}
	return args
}

func (s *Set) journal(ctx context.Context, q *logQuery) (logsOut, error) {
	r := &ring{n: q.lines}
	out := logsOut{Source: "journal"}
	var parseErr error
	res, err := s.deps.Exec.Run(ctx, execx.Cmd{
		Name:      "journalctl",
		Args:      journalArgs(q, s.journalDir),
		MaxOutput: 4 << 10, // entries are parsed as they stream; keep little
		OnStdoutLine: func(line []byte) {
			out.Scanned++
			e, err := parseJournalLine(line)
			if err != nil {
				parseErr = err
				return
			}
			if q.grep == nil || q.grep.MatchString(e.Message) {
				r.add(e)
			}
		},
	})
	if errors.Is(err, execx.ErrNotInstalled) {
		return logsOut{}, tool.Wrap(tool.ToolNotFound, err, "journalctl is not installed")
	}
	if err != nil {
		return logsOut{}, tool.AsError(err)
	}
	if res.ExitCode != 0 {
		return logsOut{}, tool.Errorf(tool.ExecutionFailed, "journalctl exited with %d: %s", res.ExitCode, strings.TrimSpace(string(res.Stderr)))
	}
	if parseErr != nil && r.matched == 0 {
		return logsOut{}, tool.Wrap(tool.ParseError, parseErr, "journalctl output: %v", parseErr)
	}
	out.Entries, out.Truncated = r.out()
	return out, nil
}

// journalJSON is the part of one `journalctl -o json` line we read. Field
// values are strings, except that a binary field is an array of byte
// values and a repeated one an array of strings (systemd's JSON format).
type journalJSON struct {
	Realtime   string          `json:"__REALTIME_TIMESTAMP"`
	Message    json.RawMessage `json:"MESSAGE"`
	Priority   string          `json:"PRIORITY"`
	Unit       string          `json:"_SYSTEMD_UNIT"`
	Identifier string          `json:"SYSLOG_IDENTIFIER"`
	PID        string          `json:"_PID"`
}

// parseJournalLine turns one line of `journalctl -o json` into an entry.
func parseJournalLine(line []byte) (logEntry, error) {
	var j journalJSON
	if err := json.Unmarshal(line, &j); err != nil {
		return logEntry{}, err
	}
	e := logEntry{Unit: j.Unit, Identifier: j.Identifier, Message: cutMessage(journalString(j.Message))}
	if us, err := strconv.ParseInt(j.Realtime, 10, 64); err == nil {
		e.Time = time.UnixMicro(us).UTC().Format(time.RFC3339Nano)
	}
	if p, err := strconv.Atoi(j.Priority); err == nil {
		e.Priority = priorityName(p)
	}
	e.PID, _ = strconv.Atoi(j.PID)
	return e, nil
}

// journalString decodes a MESSAGE value: a string, an array of byte values
// (binary or invalid UTF-8), an array of strings (the field repeated), or
// null.
func journalString(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var bs []byte
	var nums []int
	if json.Unmarshal(raw, &nums) == nil {
		for _, n := range nums {
			bs = append(bs, byte(n))
		}
		return strings.ToValidUTF8(string(bs), "\uFFFD")
	}
	var ss []string
	if json.Unmarshal(raw, &ss) == nil {
		return strings.Join(ss, "\n")
	}
	return ""
}
