package proc

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type listIn struct {
	MaxResults   int    `json:"max_results,omitempty" jsonschema:"all go to a handle" default:"100"`
	User         string `json:"user,omitempty" jsonschema:"user name or uid"`
	Name         string `json:"name,omitempty" jsonschema:"substring of the name (comm)"`
	Command      string `json:"command,omitempty" jsonschema:"substring of the command line"`
	PIDs         []int  `json:"pids,omitempty" jsonschema:"only these"`
	Sort         string `json:"sort,omitempty" jsonschema:"start: newest first" default:"cpu"`
	CommandWidth int    `json:"command_width,omitempty" jsonschema:"characters of each command line shown, 10 to 4096" default:"60"`
	Full         bool   `json:"full,omitempty" jsonschema:"every field and whole command lines"`
}

type listOut struct {
	Processes        []procEntry `json:"processes"`
	TotalProcesses   int         `json:"total_processes" jsonschema:"processes that matched the filters"`
	Truncated        bool        `json:"truncated,omitempty" jsonschema:"true when more processes matched than max_results"`
	Handle           string      `json:"handle,omitempty" jsonschema:"when processes were left out or command lines cut: every matching process as a full row, one JSON object per line, for handle_read"`
	User             string      `json:"user" jsonschema:"the user this server runs as, whom default rows do not name"`
	Sort             string      `json:"sort"`
	CPUWindowMS      int64       `json:"cpu_window_ms" jsonschema:"the window cpu_percent is measured over"`
	HiddenOtherUsers int         `json:"hidden_other_users,omitempty" jsonschema:"processes of other users left out because the operator did not enable list_other_users"`
}

const (
	defaultMaxResults = 100
	maxMaxResults     = 5000
	maxPIDFilter      = 1000
)

func (s *Set) list() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "proc_list",
		Kind:        tool.ReadOnly,
		Title:       "List processes",
		Description: "Processes with CPU %, memory, state and command line; filter by user, name, command or pid.",
		Timeout:     5 * time.Second,
	}, s.handleList).WithEnum("sort", "cpu", "mem", "pid", "start").WithRange("max_results", 1, maxMaxResults).
		WithRange("command_width", minCommandWidth, maxCommandWidth).WithMaxItems("pids", maxPIDFilter, 0)
}

func (s *Set) handleList(ctx context.Context, call *tool.Call, in listIn) (listOut, error) {
	if err := s.ready(); err != nil {
		return listOut{}, err
	}
	match, err := s.matcher(&in)
	if err != nil {
		return listOut{}, err
	}
	memTotal, err := s.reader.MemTotal()
	if err != nil {
		return listOut{}, tool.Wrap(tool.ExecutionFailed, err, "%v", err)
	}
	boot, _ := s.reader.BootTime()
	read := func() (procs.Table, error) {
		return s.reader.All(ctx, func(p *procs.Process) bool { return s.visible(p) && match.early(p) })
	}
	tab, pct, window, err := s.cpuTable(ctx, read)
	if err != nil {
		return listOut{}, tool.AsError(err)
	}
	out := listOut{Sort: cmp.Or(in.Sort, "cpu"), CPUWindowMS: window.Milliseconds()}
	var all []procEntry
	var starts []uint64
	for i := range tab.Procs {
		p := &tab.Procs[i]
		if !s.visible(p) {
			out.HiddenOtherUsers++
			continue
		}
		if !match.early(p) || !match.late(p) {
			continue
		}
		all = append(all, s.entry(p, pct[p.Key()], memTotal, boot))
		starts = append(starts, p.StartTicks)
	}
	sortEntries(all, starts, out.Sort)
	if tab.Unreadable > 0 {
		call.Warn("%d processes could not be read (permissions or hidepid) and are left out", tab.Unreadable)
	}
	out.TotalProcesses = len(all)
	out.User = s.users.Name(s.uid)
	shown := all[:min(len(all), cmp.Or(in.MaxResults, defaultMaxResults))]
	out.Truncated = len(shown) < len(all)
	out.Processes = shown
	cut := false
	if !in.Full {
		width := cmp.Or(in.CommandWidth, defaultCommandWidth)
		out.Processes = make([]procEntry, len(shown))
		for i := range shown {
			var c bool
			out.Processes[i], c = briefRow(shown[i], width, out.User)
			cut = cut || c
		}
		if cut {
			out.Handle = tool.PutWholeLines(ctx, call, "result", map[string]any{"tool": "proc_list"}, all, len(shown),
				fmt.Sprintf("command lines cut at %d characters", width))
		}
	}
	if out.Truncated && !cut {
		out.Handle = tool.PutLines(ctx, call, "result", map[string]any{"tool": "proc_list"}, all, len(shown))
	}
	if out.Processes == nil {
		out.Processes = []procEntry{}
	}
	return out, nil
}

// entry is p's full row.
func (s *Set) entry(p *procs.Process, cpu float64, memTotal uint64, boot int64) procEntry {
	e := procEntry{
		PID: p.PID, PPID: p.PPID, User: s.users.Name(p.EUID), CPUPercent: cpu,
		RSSKB: p.RSSBytes / 1024, State: p.State, Threads: p.Threads, Name: p.Comm,
		StartTime:  startTime(boot, p.StartTicks),
		Command:    p.Cmdline,
		CommandCut: p.CmdlineCut,
	}
	if memTotal > 0 {
		e.MemPercent = float64(int64(float64(p.RSSBytes)/float64(memTotal)*10000+0.5)) / 100
	}
	return e
}

func startTime(boot int64, ticks uint64) string {
	t := time.Unix(boot, 0).Add(time.Duration(ticks) * time.Second / procs.ClockTicks)
	return t.UTC().Format(time.RFC3339)
}

// sortEntries orders by the chosen key; ties go to the lower pid so the
// order is stable between calls.
func sortEntries(e []procEntry, starts []uint64, by string) {
	idx := make([]int, len(e))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(a, b int) int {
		x, y := &e[a], &e[b]
		var c int
		switch by {
		case "mem":
			c = cmp.Compare(y.RSSKB, x.RSSKB)
		case "start": // same clock tick: the higher pid is most likely the newer
			c = cmp.Or(cmp.Compare(starts[b], starts[a]), cmp.Compare(y.PID, x.PID))
		case "pid":
		default:
			c = cmp.Compare(y.CPUPercent, x.CPUPercent)
		}
		return cmp.Or(c, cmp.Compare(x.PID, y.PID))
	})
	sorted := make([]procEntry, len(e))
	for i, j := range idx {
		sorted[i] = e[j]
	}
	copy(e, sorted)
}

// lowerContains is a case-insensitive substring test.
func lowerContains(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
}
