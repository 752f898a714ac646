package proc

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// A default row leaves out what is zero, what the answer says once (the
// server's own user) and what the command line already shows (the name),
// and cuts the command line at the width with an ellipsis.
func TestBriefRow(t *testing.T) {
	python := procEntry{PID: 4321, PPID: 1, User: "app", CPUPercent: 12.5, RSSKB: 2048, State: "S", Name: "python3",
		Command:    "/usr/bin/python3 /srv/app/manage.py runserver 0.0.0.0:8000 --settings=app.settings.production",
		MemPercent: 0.5, Threads: 3, StartTime: "2026-11-26T05:00:00Z"}
	with := func(e procEntry, f func(*procEntry)) procEntry { f(&e); return e }
	for _, tc := range []struct {
		name    string
		full    procEntry
		width   int
		self    string
		want    procEntry
		wantCut bool
	}{
		{"cut, own user, name in the command", python, 40, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Command: "/usr/bin/python3 /srv/app/manage.py run…"}, true},
		{"another user's", python, 200, "root",
			procEntry{PID: 4321, PPID: 1, User: "app", CPUPercent: 12.5, RSSKB: 2048, State: "S", Command: python.Command}, false},
		{"renamed: the name is not in the command", with(python, func(e *procEntry) { e.Name, e.Command = "memfd:x", "line_io_tools/backend --uid 0" }), 60, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Name: "memfd:x", Command: "line_io_tools/backend --uid 0"}, false},
		{"the program's own path cut: the name is kept", with(python, func(e *procEntry) { e.Command = "/opt/a/very/long/path/to/python3 x.py" }), 12, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Name: "python3", Command: "/opt/a/very…"}, true},
		{"a comm cut to 15 bytes still matches", with(python, func(e *procEntry) { e.Name, e.Command = "kube-controller", "kube-controller-manager --v=2" }), 60, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Command: "kube-controller-manager --v=2"}, false},
		{"kernel thread: no command, the name", procEntry{PID: 7, PPID: 2, User: "root", State: "I", Name: "kworker/0:1", Threads: 1, StartTime: "x"}, 60, "root",
			procEntry{PID: 7, PPID: 2, State: "I", Name: "kworker/0:1"}, false},
		{"characters, not bytes", with(python, func(e *procEntry) { e.Name, e.Command = "café", "café --menü=crème brûlée" }), 12, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Command: "café --menü…"}, true},
		{"read cut at the limit: marked, not a width cut", with(python, func(e *procEntry) { e.Command, e.CommandCut = "python3 x.py", true }), 60, "app",
			procEntry{PID: 4321, PPID: 1, CPUPercent: 12.5, RSSKB: 2048, State: "S", Command: "python3 x.py…"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := briefRow(tc.full, tc.width, tc.self)
			if diff := cmp.Diff(got, tc.want); diff != "" || cut != tc.wantCut {
				t.Errorf("cut %v, want %v; row (-got +want):\n%s", cut, tc.wantCut, diff)
			}
		})
	}
}

// By default a row is short and its command line cut; the handle holds
// the row whole; full: true and a wide command_width bring it back inline.
func TestListRowsLive(t *testing.T) {
	s := newSet(config.ProcessConf{})
	c := child(t, "sleep", nil, "rows-marker", strings.Repeat("arg-", 40))
	pid := c.Process.Pid
	d := s.list()

	res, handles := runKeeping(t, s, d, map[string]any{"pids": []int{pid}})
	out := decode[listOut](t, res)
	row := find(out, pid)
	if row == nil || out.User == "" {
		t.Fatalf("no row for %d, or no user: %s", pid, res.JSON)
	}
	if utf8.RuneCountInString(row.Command) != defaultCommandWidth || !strings.HasSuffix(row.Command, "…") ||
		!strings.HasPrefix(strings.Join(c.Args, " "), strings.TrimSuffix(row.Command, "…")) {
		t.Errorf("command %q: want the first %d characters, the last an ellipsis", row.Command, defaultCommandWidth)
	}
	if row.User != "" || row.Name != "" || row.Threads != 0 || row.StartTime != "" || row.MemPercent != 0 || row.RSSKB == 0 || row.State == "" {
		t.Errorf("default row %+v: want pid, ppid, rss_kb, state and command only", row)
	}
	if out.Handle == "" || len(res.Envelope.Warnings) != 1 || !strings.Contains(res.Envelope.Warnings[0], "cut at 60 characters") {
		t.Fatalf("a cut command line and no handle, or no warning saying so: %s", res.JSON)
	}
	var whole procEntry
	if err := json.Unmarshal(handles[out.Handle], &whole); err != nil {
		t.Fatalf("handle: %v: %q", err, handles[out.Handle])
	}
	me := s.users.Name(os.Geteuid())
	if whole.Command != strings.Join(c.Args, " ") || whole.User != me || whole.Name != "proc.test" || whole.Threads < 1 || whole.StartTime == "" {
		t.Errorf("the handle's row is not whole: %+v", whole)
	}

	inline := func(args map[string]any) (procEntry, string) {
		t.Helper()
		out := decode[listOut](t, run(t, s, d, args))
		if len(out.Processes) != 1 {
			t.Fatalf("%v: %+v", args, out)
		}
		return out.Processes[0], out.Handle
	}
	full, handle := inline(map[string]any{"pids": []int{pid}, "full": true})
	full.CPUPercent, full.MemPercent, whole.CPUPercent, whole.MemPercent = 0, 0, 0, 0 // sampled anew
	if diff := cmp.Diff(full, whole); diff != "" || handle != "" {
		t.Errorf("full: true: handle %q; row (-got +handle's):\n%s", handle, diff)
	}
	wide, handle := inline(map[string]any{"pids": []int{pid}, "command_width": maxCommandWidth})
	if wide.Command != whole.Command || handle != "" {
		t.Errorf("command_width %d: %q, handle %q", maxCommandWidth, wide.Command, handle)
	}
	wantCode(t, run(t, s, d, map[string]any{"command_width": 5}), tool.InvalidParams)
}
