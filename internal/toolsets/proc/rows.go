package proc

import (
	"path"
	"strings"
	"unicode/utf8"
)

// A proc_list answer is sized for a model's context: its default rows hold
// what picking a process takes, in about 100 bytes, and the rest is one
// call away (full: true, a wider command_width, or the handle, which holds
// every row whole).
const (
	defaultCommandWidth = 60
	minCommandWidth     = 10
	maxCommandWidth     = 4096
	// wholeCommand bounds the command line read per process, and so what
	// full rows and the handle call whole: a page, where ps -ww shows all.
	wholeCommand = 4096
)

// procEntry is one process as proc_list shows it: a full row (every field,
// the whole command line) or a default row made from one by briefRow.
type procEntry struct {
	PID        int     `json:"pid"`
	PPID       int     `json:"ppid"`
	User       string  `json:"user,omitempty" jsonschema:"effective user; a default row names it only when it is not the server's own (the answer's user)"`
	CPUPercent float64 `json:"cpu_percent,omitempty" jsonschema:"percent of one CPU over cpu_window_ms; 200 is two CPUs busy; absent when 0"`
	RSSKB      uint64  `json:"rss_kb,omitempty" jsonschema:"resident memory in KiB, as ps shows it; absent when 0 (kernel threads)"`
	State      string  `json:"state" jsonschema:"R running, S sleeping, D uninterruptible (usually I/O), Z zombie, T stopped, I idle kernel thread"`
	Name       string  `json:"name,omitempty" jsonschema:"the process name (comm, at most 15 bytes); a default row gives it only when the command line does not begin with it"`
	Command    string  `json:"command,omitempty" jsonschema:"command line; in a default row cut at command_width characters, ending in … when cut; absent for kernel threads and zombies"`
	CommandCut bool    `json:"command_cut,omitempty" jsonschema:"full rows: the command line is longer than the 4096 bytes shown"`
	MemPercent float64 `json:"mem_percent,omitempty" jsonschema:"full rows: resident memory as a percent of the host's, two decimals"`
	Threads    int     `json:"threads,omitempty" jsonschema:"full rows: threads of the process"`
	StartTime  string  `json:"start_time,omitempty" jsonschema:"full rows: when it started, RFC 3339, UTC"`
}

// briefRow makes the default row of a full one: the fields that pick a
// process (pid, ppid, cpu, memory, state, what it runs), each left out where
// it says nothing, and the command line cut to width characters. self is
// the server's user, whom the answer names once. cut reports that the
// command line was cut at the width, so the handle has more.
func briefRow(e procEntry, width int, self string) (row procEntry, cut bool) {
	row = procEntry{PID: e.PID, PPID: e.PPID, CPUPercent: e.CPUPercent, RSSKB: e.RSSKB, State: e.State}
	if e.User != self {
		row.User = e.User
	}
	row.Command, cut = cutCommand(e.Command, width)
	if e.CommandCut && !cut {
		row.Command += "…" // as read: what a default row cannot show whole either
	}
	if !nameInCommand(e.Name, row.Command) {
		row.Name = e.Name
	}
	return row, cut
}

// cutCommand keeps the first width characters of s, the last of them an
// ellipsis when s is longer.
func cutCommand(s string, width int) (string, bool) {
	if utf8.RuneCountInString(s) <= width {
		return s, false
	}
	n := 0
	for i := range s {
		if n == width-1 {
			return s[:i] + "…", true
		}
		n++
	}
	return s, false
}

// nameInCommand reports whether the command line as shown begins with the
// process name: its program's base name starts with comm (which the kernel
// cuts to 15 bytes), as for "python3 app.py" or "nginx: worker process".
func nameInCommand(comm, shown string) bool {
	prog, _, _ := strings.Cut(shown, " ")
	return comm != "" && strings.HasPrefix(path.Base(prog), comm)
}
