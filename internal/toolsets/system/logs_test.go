package system

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// journalRemote writes journal files from journal export format.
const journalRemote = "/lib/systemd/systemd-journal-remote"

// entry is one journal entry to write: minutes ago, unit, priority, message.
type entry struct {
	ago      time.Duration
	unit     string
	priority int
	msg      string
}

// writeJournal writes entries as a real journal file in a new directory,
// through systemd-journal-remote, and returns the directory.
func writeJournal(t *testing.T, entries []entry) string {
	t.Helper()
	testutil.RequireBinary(t, journalRemote)
	dir := t.TempDir()
	var export bytes.Buffer
	now := time.Now()
	for _, e := range entries {
		fmt.Fprintf(&export, "__REALTIME_TIMESTAMP=%d\n_SYSTEMD_UNIT=%s\nSYSLOG_IDENTIFIER=%s\nPRIORITY=%d\n_PID=42\nMESSAGE=%s\n\n",
			now.Add(-e.ago).UnixMicro(), e.unit, strings.TrimSuffix(e.unit, ".service"), e.priority, e.msg)
	}
	cmd := exec.Command(journalRemote, "--output="+filepath.Join(dir, "test.journal"), "-")
	cmd.Stdin = &export
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("writing the journal: %v\n%s", err, out)
	}
	return dir
}

func logsSet(t *testing.T, journalDir string, files []string) *Set {
	t.Helper()
	ex, err := execx.New(&execx.Options{Allowed: []string{"journalctl"}})
	if err != nil {
		t.Fatal(err)
	}
	s := New(&Deps{Exec: ex, LogFiles: files})
	s.journalDirs = []string{journalDir}
	s.journalDir = journalDir
	return s
}

func callLogs(t *testing.T, s *Set, args string) (logsOut, *tool.Error) {
	t.Helper()
	return tooltest.Run[logsOut](t, context.Background(), s.logs(), "test", json.RawMessage(args))
}

func messages(out logsOut) string {
	var m []string
	for _, e := range out.Entries {
		m = append(m, e.Message)
	}
	return strings.Join(m, "|")
}

// sys_logs reads a real journal through journalctl: newest entries oldest
// first, filtered by unit, priority, age and regex, bounded by lines.
func TestLogsFromJournal(t *testing.T) {
	testutil.RequireBinary(t, "journalctl")
	dir := writeJournal(t, []entry{
		{3 * time.Hour, "nginx.service", 6, "started old"},
		{50 * time.Minute, "nginx.service", 3, "upstream timed out"},
		{40 * time.Minute, "cron.service", 6, "job ran"},
		{20 * time.Minute, "nginx.service", 4, "slow upstream"},
		{10 * time.Minute, "nginx.service", 6, "reloaded"},
		{5 * time.Minute, "sshd.service", 5, "Accepted publickey for deploy"},
	})
	s := logsSet(t, dir, nil)
	out, terr := callLogs(t, s, `{"unit":"nginx.service"}`)
	if terr != nil {
		t.Fatal(terr)
	}
	if out.Source != "journal" || messages(out) != "started old|upstream timed out|slow upstream|reloaded" {
		t.Fatalf("unit nginx: %+v", out)
	}
	if e := out.Entries[1]; e.Priority != "err" || e.Unit != "nginx.service" || e.Identifier != "nginx" || e.PID != 42 || e.Time == "" {
		t.Fatalf("entry fields: %+v", e)
	}
	out, _ = callLogs(t, s, `{"priority":"warning"}`)
	if messages(out) != "upstream timed out|slow upstream" {
		t.Fatalf("warning and worse: %q", messages(out))
	}
	out, _ = callLogs(t, s, `{"since":"30m"}`)
	if messages(out) != "slow upstream|reloaded|Accepted publickey for deploy" {
		t.Fatalf("last 30 minutes: %q", messages(out))
	}
	out, _ = callLogs(t, s, `{"grep":"UPSTREAM"}`)
	if messages(out) != "upstream timed out|slow upstream" {
		t.Fatalf("grep upstream: %q", messages(out))
	}
	out, _ = callLogs(t, s, `{"lines":2}`)
	if messages(out) != "reloaded|Accepted publickey for deploy" {
		t.Fatalf("newest two: %q", messages(out))
	}
	if _, terr := callLogs(t, s, `{"unit":"--output=cat"}`); terr == nil {
		t.Fatal("a unit that looks like an option was accepted")
	}
}

// Without a journal, sys_logs tails only allowlisted files.
func TestLogsFromFiles(t *testing.T) {
	dir := t.TempDir()
	syslog := filepath.Join(dir, "syslog")
	lines := []string{
		"2026-11-24T10:00:00.000000+00:00 host nginx[42]: upstream timed out",
		"2026-11-24T10:00:01.000000+00:00 host cron[7]: job ran",
		"2026-11-24T10:00:02.000000+00:00 host nginx[42]: reloaded",
	}
	if err := os.WriteFile(syslog, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(dir, "shadow")
	if err := os.WriteFile(secret, []byte("root:x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := logsSet(t, t.TempDir(), []string{filepath.Join(dir, "absent.log"), syslog})
	out, terr := callLogs(t, s, `{}`)
	if terr != nil {
		t.Fatal(terr)
	}
	if out.Source != "file" || out.File != syslog || len(out.FilesAvailable) != 1 || messages(out) != "upstream timed out|job ran|reloaded" {
		t.Fatalf("tail of syslog: %+v", out)
	}
	if e := out.Entries[0]; e.Identifier != "nginx" || e.PID != 42 || e.Time != "2026-11-24T10:00:00Z" {
		t.Fatalf("parsed line: %+v", e)
	}
	out, _ = callLogs(t, s, `{"unit":"nginx.service"}`)
	if messages(out) != "upstream timed out|reloaded" {
		t.Fatalf("nginx lines: %+v", out.Entries)
	}
	out, _ = callLogs(t, s, `{"grep":"JOB|reload","lines":1}`)
	if messages(out) != "reloaded" || !out.Truncated {
		t.Fatalf("grep cron: %+v", out.Entries)
	}
	if _, terr := callLogs(t, s, `{"file":"`+secret+`"}`); terr == nil || terr.Code != tool.InvalidArgument || terr.Suggestion == "" {
		t.Fatalf("a file off the allowlist was read: %+v", terr)
	}
	empty := logsSet(t, t.TempDir(), []string{filepath.Join(dir, "absent.log")})
	empty.kmsgPath = filepath.Join(dir, "absent-kmsg")
	if _, terr := callLogs(t, empty, `{}`); terr == nil || terr.Code != tool.CapabilityMissing {
		t.Fatalf("no journal and no file: %+v", terr)
	}
}
