package bpftrace

import (
	"context"
	"path"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type probesIn struct {
	Filter string `json:"filter,omitempty" jsonschema:"substring, or glob with * (tracepoint:syscalls:*)"`
	Offset int    `json:"offset,omitempty" jsonschema:"first probe"`
	Limit  int    `json:"limit,omitempty" default:"100"`
}

type probesOut struct {
	Probes  []string `json:"probes"`
	Total   int      `json:"total" jsonschema:"probes matching the filter"`
	Offset  int      `json:"offset"`
	HasMore bool     `json:"has_more"`
}

func (s *Set) listProbes() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "bpftrace_list_probes",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "List bpftrace probes",
		Description: "Probes bpftrace can attach to here (bpftrace -l), filtered and paged.",
		Timeout:     60 * time.Second,
	}, s.handleProbes).WithRange("offset", 0, 1<<30).WithRange("limit", 1, 1000)
}

func (s *Set) handleProbes(ctx context.Context, _ *tool.Call, in probesIn) (probesOut, error) {
	if err := s.available(); err != nil {
		return probesOut{}, err
	}
	s.probesOnce.Do(func() {
		res, err := s.exec.Run(ctx, execx.Cmd{Name: "bpftrace", Args: []string{"-l"}, Timeout: 50 * time.Second, MaxOutput: 64 << 20})
		if err != nil || res.ExitCode != 0 {
			s.probesErr = tool.Errorf(tool.ExecutionFailed, "bpftrace -l failed: %v %s", err, res.Stderr)
			return
		}
		s.probes = strings.Split(strings.TrimSpace(string(res.Stdout)), "\n")
	})
	if s.probesErr != nil {
		return probesOut{}, s.probesErr
	}
	var match []string
	for _, p := range s.probes {
		if matches(p, in.Filter) {
			match = append(match, p)
		}
	}
	limit := in.Limit
	if limit == 0 {
		limit = 100
	}
	out := probesOut{Total: len(match), Offset: in.Offset, Probes: []string{}}
	if in.Offset < len(match) {
		end := min(len(match), in.Offset+limit)
		out.Probes, out.HasMore = append(out.Probes, match[in.Offset:end]...), end < len(match)
	}
	return out, nil
}

func matches(probe, filter string) bool {
	if filter == "" {
		return true
	}
	if strings.ContainsAny(filter, "*?[") {
		ok, _ := path.Match(filter, probe)
		return ok
	}
	return strings.Contains(probe, filter)
}

// helper is one builtin or function of the bpftrace language.
type helper struct {
	Name        string `json:"name"`
	Kind        string `json:"kind" jsonschema:"variable, function or map function"`
	Description string `json:"description"`
	Unsafe      bool   `json:"unsafe,omitempty" jsonschema:"needs bpftrace --unsafe, which hostmcp never uses"`
}

// helpers is the language reference an agent needs most (bpftrace(8)).
var helpers = []helper{
	{"pid", "variable", "process id (kernel tgid)", false}, {"tid", "variable", "thread id", false},
	{"uid", "variable", "user id", false}, {"comm", "variable", "process name", false},
	{"nsecs", "variable", "nanosecond timestamp", false}, {"elapsed", "variable", "nanoseconds since bpftrace started", false},
	{"cpu", "variable", "processor id", false}, {"cgroup", "variable", "cgroup id of the current process", false},
	{"kstack", "variable", "kernel stack trace", false}, {"ustack", "variable", "user stack trace", false},
	{"args", "variable", "tracepoint arguments (args->field)", false}, {"retval", "variable", "return value (kretprobe, uretprobe)", false},
	{"curtask", "variable", "current task_struct", false}, {"probe", "variable", "full name of the current probe", false},
	{"printf(fmt, ...)", "function", "print formatted", false}, {"print(@map)", "function", "print a map or value", false},
	{"time(fmt)", "function", "print the time", false}, {"str(char *)", "function", "read a string from a pointer", false},
	{"ksym(addr)", "function", "kernel symbol of an address", false}, {"usym(addr)", "function", "user symbol of an address", false},
	{"ntop(addr)", "function", "IP address to text", false}, {"exit()", "function", "stop the program", false},
	{"cat(path)", "function", "print a file; refused unless [bpftrace] allow_cat", false},
	{"clear(@map)", "function", "empty a map", false}, {"delete(@map[key])", "function", "remove one key", false},
	{"count()", "map function", "count events", false}, {"sum(n)", "map function", "sum values", false},
	{"avg(n)", "map function", "average", false}, {"min(n)", "map function", "minimum", false}, {"max(n)", "map function", "maximum", false},
	{"stats(n)", "map function", "count, average and total", false}, {"hist(n)", "map function", "power-of-two histogram", false},
	{"lhist(n, min, max, step)", "map function", "linear histogram", false},
	{"system(fmt)", "function", "run a shell command", true}, {"signal(sig)", "function", "signal the current process", true},
	{"override(rc)", "function", "override a kprobe's return value", true},
}

type helpersOut struct {
	Helpers []helper `json:"helpers"`
	Info    string   `json:"info" jsonschema:"bpftrace --info: this host's version, kernel helpers and features"`
}

func (s *Set) listHelpers() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "bpftrace_list_helpers",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "bpftrace builtins and functions",
		Description: "bpftrace's builtin variables and functions, and what this host's bpftrace supports.",
		Timeout:     30 * time.Second,
	}, s.handleHelpers)
}

func (s *Set) handleHelpers(ctx context.Context, call *tool.Call, _ struct{}) (helpersOut, error) {
	out := helpersOut{Helpers: helpers}
	if err := s.available(); err != nil {
		call.Warn("bpftrace is not installed, so what this host supports is unknown")
		return out, nil
	}
	res, err := s.exec.Run(ctx, execx.Cmd{Name: "bpftrace", Args: []string{"--info"}, Timeout: 20 * time.Second})
	if err == nil {
		out.Info = strings.TrimSpace(string(res.Stdout) + string(res.Stderr))
	}
	var kept []string
	for _, l := range strings.Split(out.Info, "\n") {
		if !noise(l) || l == "" {
			kept = append(kept, l)
		}
	}
	out.Info = strings.Join(kept, "\n")
	return out, nil
}
