package bpftrace

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// What a program may do beyond watching the kernel is judged on bpftrace's
// own reading of it (dump.go): the functions it calls and the attach points
// it ends up with, whatever the spelling.
//
// str() and buf() of user memory are not gated, deliberately. They are how
// every useful syscall trace names its files and commands (openat's
// filename, execve's argv), and they are not the only way to read user
// memory: a plain dereference, *(uint8 *)args->buf in an unrolled loop,
// reads the same bytes, as does a walk of kernel structures (curtask) to a
// terminal's buffers. A gate on str() would be a speed bump, not a boundary;
// the README says plainly that serving this toolset lets the agent read any
// process's memory.

// gatedCall is a function refused unless a setting allows it.
type gatedCall struct {
	allowed func(config.BpftraceConf) bool // nil: no setting allows it
	code    tool.Code
	why     string
	key     string
	suggest string
}

var gatedCalls = map[string]gatedCall{
	"cat": {func(c config.BpftraceConf) bool { return c.AllowCat }, tool.FeatureDisabled,
		"prints any file with root's rights", "allow_cat",
		"Read files with fs_read inside the allowed roots; an operator who wants cat() in programs sets [bpftrace] allow_cat = true."},
	"system":   unsafeCall,
	"signal":   unsafeCall,
	"override": unsafeCall,
	"skboutput": {nil, tool.CommandNotAllowed, "writes packets to a file anywhere, as root", "",
		"Count or print packet fields in the program instead."},
}

var unsafeCall = gatedCall{func(c config.BpftraceConf) bool { return c.AllowUnsafeBuiltins }, tool.CommandNotAllowed,
	"bpftrace allows only in --unsafe mode; hostmcp never enables it", "allow_unsafe_builtins",
	"Observe instead of acting: record the event (printf, a map) and act on the result with proc_kill or another tool."}

// gateCalls refuses the first gated function the program calls, in name
// order so the answer does not vary between calls.
func (s *Set) gateCalls(calls map[string]bool) error {
	names := make([]string, 0, len(calls))
	for n := range calls {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		g, ok := gatedCalls[n]
		if !ok || (g.allowed != nil && g.allowed(s.conf)) {
			continue
		}
		msg := fmt.Sprintf("the program calls %s(), which %s", n, g.why)
		switch {
		case g.allowed == nil:
			msg += "; no setting allows it"
		case g.code == tool.FeatureDisabled:
			msg += fmt.Sprintf("; it is off unless [bpftrace] %s = true", g.key)
		default:
			msg += fmt.Sprintf("; [bpftrace] %s = true only passes it on to bpftrace, which refuses it too", g.key)
		}
		return tool.Errorf(g.code, "%s", msg).WithSuggestion("%s", g.suggest)
	}
	return nil
}

// Probe types, as bpftrace 0.17 names them after expanding aliases
// (src/types.h PROBE_LIST).
var (
	kernelProbes = map[string]bool{"BEGIN": true, "END": true, "kprobe": true, "kretprobe": true, "kfunc": true, "kretfunc": true,
		"tracepoint": true, "profile": true, "interval": true, "software": true, "hardware": true}
	userProbes    = map[string]bool{"uprobe": true, "uretprobe": true, "usdt": true}
	probeNoun     = map[string]string{"uprobe": "uprobes", "uretprobe": "uretprobes", "usdt": "USDT probes"}
	refusedProbes = map[string]string{
		"watchpoint":      "watches an address in every process's memory",
		"asyncwatchpoint": "watches an address in every process's memory",
		"iter":            "can pin itself in /sys/fs/bpf (iter:task:NAME), where it outlives the run, and bpftrace's listing does not show the pin",
	}
)

// maxTargets bounds the files one program's wildcards may name.
const maxTargets = 4096

// gateProbes refuses an attach point of a type not offered, or a
// user-space probe on a file the configuration does not allow.
func (s *Set) gateProbes(probes []string, policy targetPolicy) error {
	checked := 0
	for _, ap := range probes {
		kind, rest, _ := strings.Cut(ap, ":")
		switch {
		case kernelProbes[kind]:
			continue
		case refusedProbes[kind] != "":
			return tool.Errorf(tool.CommandNotAllowed, "probe %q: %s probes are not offered: one %s", tool.Clip(ap), kind, refusedProbes[kind]).
				WithSuggestion("Use tracepoints, profile or interval probes; proc_list lists tasks and their files.")
		case !userProbes[kind]:
			return tool.Errorf(tool.CommandNotAllowed, "probe %q: unknown probe type %q", tool.Clip(ap), tool.Clip(kind)).
				WithSuggestion("bpftrace_list_probes lists the probes this host offers.")
		}
		if !strings.HasPrefix(rest, "/") {
			return tool.Errorf(tool.InvalidArgument, "probe %q: name the file by its absolute path", tool.Clip(ap)).
				WithSuggestion("Write uprobe:/usr/bin/program:function; a bare name is looked up on PATH, a library name (libc) is resolved for you.")
		}
		for _, target := range candidateTargets(rest) {
			paths := []string{target}
			if strings.Contains(target, "*") { // bpftrace expands a target only then
				var err error
				paths, err = glob(target, maxTargets-checked)
				if errors.Is(err, errTooMany) {
					return tool.Errorf(tool.LimitReached, "probe %q: the program's wildcards name more than %d files", tool.Clip(ap), maxTargets).
						WithSuggestion("Name the files without wildcards, or with narrower ones.")
				}
				if err != nil {
					return tool.Errorf(tool.InvalidArgument, "probe %q: bad wildcard %q: %v", tool.Clip(ap), tool.Clip(target), err)
				}
			}
			checked += len(paths)
			for _, path := range paths {
				if err := s.gateTarget(ap, kind, path, policy); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// candidateTargets are the paths an attach point's text may name. bpftrace
// prints "uprobe:" TARGET ":" FUNCTION, and a quoted target may itself hold
// a colon, so every prefix that ends before a colon is a candidate; those
// that are not files have nothing to attach to.
func candidateTargets(rest string) []string {
	var out []string
	for i := range len(rest) {
		if rest[i] == ':' {
			out = append(out, rest[:i])
		}
	}
	return append(out, rest)
}

// errTooMany is a wildcard that names more files than may be checked.
var errTooMany = errors.New("too many files")

// glob expands an absolute pattern one directory level at a time, as
// glob(3) does, and gives up once a level holds more than limit paths: a
// pattern such as /*/*/*/*/*/* must not walk the whole file system. Its *
// also matches names that start with a dot, which glob(3)'s does not: more
// files checked, never fewer.
func glob(pattern string, limit int) ([]string, error) {
	paths := []string{"/"}
	for _, part := range strings.Split(strings.TrimPrefix(pattern, "/"), "/") {
		var next []string
		for _, dir := range paths {
			if !strings.ContainsAny(part, `*?[\`) {
				next = append(next, filepath.Join(dir, part))
				continue
			}
			entries, err := os.ReadDir(dir)
			if err != nil {
				continue // not a directory, or gone: nothing below it to attach to
			}
			for _, e := range entries {
				ok, err := filepath.Match(part, e.Name())
				if err != nil {
					return nil, err
				}
				if ok {
					next = append(next, filepath.Join(dir, e.Name()))
				}
			}
			if len(next) > limit {
				return nil, errTooMany
			}
		}
		paths = next
	}
	return paths, nil
}

func (s *Set) gateTarget(ap, kind, path string, policy targetPolicy) error {
	found, shell, err := policy.judge(path)
	if err != nil {
		return tool.Wrap(tool.PermissionDenied, err, "probe %q: cannot check %q: %v", tool.Clip(ap), tool.Clip(path), err)
	}
	var what, keys []string
	for _, f := range found {
		if !s.allows(f.key) {
			what = append(what, f.what)
			if k := "[bpftrace] " + f.key + " = true"; !slices.Contains(keys, k) {
				keys = append(keys, k)
			}
		}
	}
	if len(keys) == 0 {
		return nil
	}
	name := fmt.Sprintf("%q", tool.Clip(path))
	if shell != "" && shell != path {
		name += fmt.Sprintf(" (the same file as %s)", tool.Clip(shell))
	}
	return tool.Errorf(tool.FeatureDisabled, "probe %q attaches to %s, which is %s; %s there are off unless %s",
		tool.Clip(ap), name, strings.Join(what, " and "), probeNoun[kind], strings.Join(keys, " and ")).
		WithSuggestion("Trace the kernel side instead (tracepoint:syscalls:*, sched, block probes), or ask the operator to set %s.", strings.Join(keys, " and "))
}

// allows says whether the setting named key is on.
func (s *Set) allows(key string) bool {
	switch key {
	case shellTarget.key:
		return s.conf.AllowShellUprobes
	case libraryTarget.key:
		return s.conf.AllowLibraryUprobes
	case othersTarget.key:
		return s.conf.AllowOthersUprobes
	}
	return false
}
