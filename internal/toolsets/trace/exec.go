package trace

import (
	"cmp"
	"context"
	"path/filepath"
	"regexp"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// execIn is perf_exec_trace's input (spec 000 section 9.13).
type execIn struct {
	DurationSeconds   int    `json:"duration_seconds,omitempty" default:"10"`
	PID               int    `json:"pid,omitempty" jsonschema:"only children of this parent"`
	NamePattern       string `json:"name_pattern,omitempty" jsonschema:"regex on command name and file"`
	UID               *int   `json:"uid,omitempty" jsonschema:"only this user id"`
	IncludeFailed     bool   `json:"include_failed,omitempty"`
	MaxArgs           int    `json:"max_args,omitempty" jsonschema:"per exec" default:"20"`
	IncludeTimestamps bool   `json:"include_timestamps,omitempty"`
}

type execRow struct {
	Time          *float64 `json:"time_s,omitempty"`
	PID           uint32   `json:"pid"`
	PPID          uint32   `json:"ppid"`
	UID           uint32   `json:"uid"`
	Comm          string   `json:"comm"`
	Filename      string   `json:"filename"`
	Args          []string `json:"args"`
	ArgsTruncated bool     `json:"args_truncated,omitempty"`
	Error         string   `json:"error,omitempty" jsonschema:"why the exec failed (ENOENT, EACCES...)"`
}

// programRow is how many times one parent ran one file over the window.
type programRow struct {
	Filename string            `json:"filename"`
	Comm     string            `json:"comm" jsonschema:"the command it ran as"`
	PPID     uint32            `json:"ppid"`
	Parent   string            `json:"parent" jsonschema:"the parent's command"`
	Count    uint64            `json:"count"`
	Failed   uint64            `json:"failed"`
	Errors   map[string]uint64 `json:"errors,omitempty" jsonschema:"failed execs by errno: ENOENT, EACCES, ..."`
}

type execOut struct {
	Mechanism   string       `json:"mechanism"`
	Total       uint64       `json:"total" jsonschema:"execs matching the filters"`
	Failed      uint64       `json:"failed"`
	Lost        uint64       `json:"lost" jsonschema:"records a full ring buffer dropped; the counts include them"`
	NotInTables uint64       `json:"not_in_tables" jsonschema:"execs of any kind the kernel's table (8192 rows) had no room for: in no count here"`
	ByProgram   []programRow `json:"by_program" jsonschema:"every exec counted by file and parent, most first"`
	ByProgramOf listed       `json:"by_program_shown" jsonschema:"by_program: N of M shown, and which"`
	Execs       []execRow    `json:"execs" jsonschema:"records of execs"`
	ExecsOf     listed       `json:"execs_shown" jsonschema:"execs: N of M shown, and which"`
}

func (s *Set) execTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_exec_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace process executions (eBPF)",
		Description: "Every exec (execsnoop), counted by file and parent, with sampled records (user, file, arguments); short-lived processes included.",
		Timeout:     45 * time.Second,
	}, s.handleExec).WithRange("duration_seconds", 1, 30).WithRange("max_args", 1, 20)
}

func (s *Set) handleExec(ctx context.Context, call *tool.Call, in execIn) (execOut, error) {
	var re *regexp.Regexp
	if in.NamePattern != "" {
		var err error
		if re, err = tool.CompileRegexp("name_pattern", in.NamePattern, ""); err != nil {
			return execOut{}, err
		}
	}
	if err := s.preflight(""); err != nil {
		return execOut{}, err
	}
	wanted := func(ppid, uid uint32, failed bool, comm, filename string) bool {
		return (!failed || in.IncludeFailed) && (in.PID <= 0 || ppid == uint32(in.PID)) && (in.UID == nil || uid == uint32(*in.UID)) &&
			(re == nil || re.MatchString(comm) || re.MatchString(filepath.Base(filename)))
	}
	d := seconds(in.DurationSeconds, 10)
	start := clock()
	records := newSample[execRow](maxRecords)
	res, err := bpfprog.ExecTrace(ctx, d, cmp.Or(in.MaxArgs, bpfprog.MaxExecArgs), call.Elapsed(ctx, d, "tracing execs"), func(e bpfprog.ExecEvent) {
		if !wanted(e.PPID, e.UID, e.Ret != 0, e.Comm, e.Filename) {
			return
		}
		row := execRow{PID: e.PID, PPID: e.PPID, UID: e.UID, Comm: e.Comm, Filename: e.Filename, Args: e.Args,
			ArgsTruncated: e.ArgsTruncated, Error: errnoName(int64(e.Ret))}
		if row.Args == nil {
			row.Args = []string{}
		}
		t := relSeconds(e.Time, start)
		row.Time = &t // kept to sort by; dropped below unless asked for
		records.add(row)
	})
	if err != nil {
		return execOut{}, tool.Failed(err)
	}
	out := execOut{Mechanism: bpfprog.ExecMechanism, Lost: res.Lost, NotInTables: res.Unkeyed}
	type key struct {
		filename string
		ppid     uint32
	}
	rows := map[key]*programRow{}
	for _, c := range res.Counts {
		if !wanted(c.PPID, c.UID, c.Errno != 0, c.Comm, c.Filename) {
			continue
		}
		out.Total += c.Count
		r := rows[key{c.Filename, c.PPID}]
		if r == nil {
			r = &programRow{Filename: c.Filename, Comm: c.Comm, PPID: c.PPID, Parent: c.Parent}
			rows[key{c.Filename, c.PPID}] = r
		}
		r.Count += c.Count
		if c.Errno != 0 {
			out.Failed += c.Count
			r.Failed += c.Count
			if r.Errors == nil {
				r.Errors = map[string]uint64{}
			}
			r.Errors[errnoName(-int64(c.Errno))] += c.Count
		} else {
			r.Comm = c.Comm // a failed exec keeps the parent's
		}
	}
	table := make([]programRow, 0, len(rows))
	for _, r := range rows {
		table = append(table, *r)
	}
	slices.SortFunc(table, func(a, b programRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.Filename, b.Filename), cmp.Compare(a.PPID, b.PPID))
	})
	out.ByProgram = table[:min(tableRows, len(table))]
	out.Execs = records.items
	slices.SortStableFunc(out.Execs, func(a, b execRow) int { return cmp.Compare(*a.Time, *b.Time) })
	if !in.IncludeTimestamps {
		for i := range out.Execs {
			out.Execs[i].Time = nil
		}
	}
	if out.Execs == nil {
		out.Execs = []execRow{}
	}
	fitAnswer(&out, call.DataBudget(),
		[]cut{spread(&out.Execs, int(out.Total), &out.ExecsOf)},
		[]cut{head(&out.ByProgram, len(table), "count", &out.ByProgramOf)})
	return out, nil
}
