package privilege

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// tree is a host's /proc and /sys as the preflight reads them: this
// process's ids and capabilities, perf_event_paranoid, BTF, bpffs, tracefs,
// and other processes' status files.
type tree struct {
	uid      int    // the server's ids
	bnd      string // the server's bounding set: what root's programs get
	paranoid int
	noBTF    bool
	procs    map[int]int // pid -> uid of other processes
}

func (tr tree) host(t *testing.T) *hostinfo.Host {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	status := func(uid int) string {
		id := strconv.Itoa(uid)
		return "Uid:\t" + id + "\t" + id + "\t" + id + "\t" + id + "\nGid:\t" + id + "\t" + id + "\t" + id + "\t" + id +
			"\nCapInh:\t0000000000000000\nCapPrm:\t0000000000000000\nCapEff:\t0000000000000000\nCapBnd:\t" + tr.bnd + "\nCapAmb:\t0000000000000000\n"
	}
	write("proc/self/status", status(tr.uid))
	write("proc/self/mountinfo", "42 23 0:13 / /sys/kernel/tracing rw,relatime - tracefs nodev rw\n")
	write("proc/sys/kernel/perf_event_paranoid", strconv.Itoa(tr.paranoid)+"\n")
	write("sys/fs/bpf/.keep", "")
	if !tr.noBTF {
		write("sys/kernel/btf/vmlinux", "")
	}
	for pid, uid := range tr.procs {
		p := write("proc/"+strconv.Itoa(pid)+"/status", status(uid))
		if os.Getuid() == 0 { // as the kernel shows a dumpable process's files
			if err := os.Chown(p, uid, uid); err != nil {
				t.Fatal(err)
			}
		}
	}
	return hostinfo.New(hostinfo.Roots{Proc: filepath.Join(dir, "proc"), Sys: filepath.Join(dir, "sys"), RootFS: dir})
}

const noBounding = "0000000000000000"

func installed(names ...string) func(string) bool {
	return func(n string) bool {
		for _, x := range names {
			if x == n {
				return true
			}
		}
		return false
	}
}

// checkCase is one call judged by the preflight.
type checkCase struct {
	name     string
	tree     tree
	programs []string // installed
	tool     string
	args     string
	code     tool.Code // "" when the call may run
	message  []string  // in the error's message
	suggest  []string  // in its suggestion
	warning  string    // in the warnings of a call that runs
}

// The preflight picks the rules a call's arguments select and refuses it
// before it starts when the host does not grant them: the code says
// whether a setting can help, the message what is missing and the value
// the kernel holds, the suggestion the /proc tool to use and the fix. A
// call that may run with less gets a warning; a process of another user
// is refused as the kernel's ptrace check would.
func TestCheck(t *testing.T) {
	t.Parallel()
	me := os.Getuid()
	if me == 0 {
		me = 65534 // the server is an ordinary user's
	}
	user := tree{uid: me, bnd: noBounding, paranoid: 2, procs: map[int]int{100: me + 1, 200: me}}
	tests := []checkCase{
		{name: "system-wide profile at paranoid 2", tree: user, programs: []string{"perf"}, tool: "perf_cpu_profile", args: `{"duration_seconds":1}`,
			code:    tool.PermissionDenied,
			message: []string{"perf_cpu_profile (system-wide) was not started", "perf events on every CPU", "perf_event_paranoid 0 or lower, or CAP_PERFMON", "here perf_event_paranoid=2"},
			suggest: []string{"proc_list (CPU per process, from /proc)", `perf_thread_profile {"pid":N}`, "sysctl -w kernel.perf_event_paranoid=0"}},
		{name: "own process at paranoid 2", tree: user, programs: []string{"perf"}, tool: "perf_cpu_profile", args: `{"pid":200}`,
			warning: "kernel frames are left out"},
		{name: "another user's process", tree: user, programs: []string{"perf"}, tool: "perf_cpu_profile", args: `{"pid":100}`,
			code:    tool.PermissionDenied,
			message: []string{"(of one process)", "pid 100 runs as uid " + strconv.Itoa(me+1), "without CAP_SYS_PTRACE or CAP_PERFMON"},
			suggest: []string{"perf_thread_profile"}},
		{name: "a process that is gone is the tool's to answer", tree: user, programs: []string{"perf"}, tool: "perf_cpu_profile", args: `{"pid":300}`,
			warning: "kernel frames are left out"},
		{name: "perf not installed: the tool falls back itself", tree: user, tool: "perf_cpu_profile", args: `{}`},
		{name: "snapshot mode needs nothing", tree: user, programs: []string{"bpftrace"}, tool: "perf_io_latency", args: `{"mode":"snapshot"}`},
		{name: "trace mode needs bpftrace", tree: user, programs: []string{"bpftrace"}, tool: "perf_io_latency", args: `{"mode":"trace"}`,
			code: tool.PermissionDenied, message: []string{"perf_io_latency (mode trace)", "root: bpftrace refuses any other user", "uid " + strconv.Itoa(me)},
			suggest: []string{`perf_io_latency {"mode":"snapshot"}`}},
		{name: "perf sched at paranoid 2", tree: user, programs: []string{"perf"}, tool: "perf_offcpu_profile", args: `{}`,
			code: tool.PermissionDenied, message: []string{"perf_event_paranoid -1 or lower", "tracefs"}, suggest: []string{`"include_offcpu":true`}},
		{name: "eBPF without BTF is the kernel's lack", tree: tree{uid: me, bnd: noBounding, paranoid: 2, noBTF: true}, tool: "perf_runq_latency", args: `{}`,
			code: tool.CapabilityMissing, message: []string{"no BTF", "CAP_BPF"}, suggest: []string{"perf_thread_profile", "perf_use_check", "CONFIG_DEBUG_INFO_BTF"}},
		{name: "another user's descriptors", tree: user, tool: "perf_fd_trace", args: `{"pid":100}`,
			code: tool.PermissionDenied, message: []string{"pid 100", "hostmcp runs as uid"}},
		{name: "own descriptors", tree: user, tool: "perf_fd_trace", args: `{"pid":200}`},
		{name: "a tool that needs nothing", tree: user, programs: []string{"rg"}, tool: "search_files", args: `{}`},
		{name: "a tool the table does not name", tree: user, tool: "fs_read", args: `{"path":"x"}`},
	}
	if os.Getuid() == 0 {
		// Root's programs with perf capabilities in the bounding set: any process.
		root := tree{uid: 0, bnd: "000000c000280000", paranoid: 2, procs: map[int]int{100: 65534}}
		tests = append(tests, checkCase{name: "root profiles anything", tree: root, programs: []string{"perf", "bpftrace"}, tool: "perf_cpu_profile", args: `{"pid":100}`})
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := New(tc.tree.host(t), installed(tc.programs...))
			warnings, err := p.Check(tc.tool, json.RawMessage(tc.args))
			if tc.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if got := strings.Join(warnings, "\n"); tc.warning == "" && got != "" || !strings.Contains(got, tc.warning) {
					t.Errorf("warnings %q, want %q", warnings, tc.warning)
				}
				return
			}
			te, ok := err.(*tool.Error)
			if !ok || te.Code != tc.code || te.Recoverable {
				t.Fatalf("got %v, want %s", err, tc.code)
			}
			for _, m := range tc.message {
				if !strings.Contains(te.Message, m) {
					t.Errorf("message lacks %q: %s", m, te.Message)
				}
			}
			for _, s := range tc.suggest {
				if !strings.Contains(te.Suggestion, s) {
					t.Errorf("suggestion lacks %q: %s", s, te.Suggestion)
				}
			}
		})
	}
}

// A process of the server's own user that is not dumpable (its /proc
// files are root's) is refused like another user's.
func TestCheckNotDumpable(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("making a fixture file another user's needs root")
	}
	tr := tree{uid: 65534, bnd: noBounding, paranoid: 2, procs: map[int]int{100: 65534}}
	h := tr.host(t)
	if err := os.Chown(filepath.Join(h.Roots().Proc, "100", "status"), 0, 0); err != nil {
		t.Fatal(err)
	}
	_, err := New(h, installed("perf")).Check("perf_cpu_profile", json.RawMessage(`{"pid":100}`))
	if te, ok := err.(*tool.Error); !ok || te.Code != tool.PermissionDenied || !strings.Contains(te.Message, "pid 100 is not dumpable") {
		t.Fatalf("got %v", err)
	}
}

// perf_info's report makes the preflight's judgement for every use.
func TestReport(t *testing.T) {
	t.Parallel()
	c := nobodyHost
	rows := New(hostinfo.New(hostinfo.Roots{}), installed("perf")).Report(c)
	byUse := map[string]Readiness{}
	for _, r := range rows {
		byUse[r.Tool+"/"+r.Use] = r
	}
	if r := byUse["perf_cpu_profile/system-wide"]; r.Ready || !strings.Contains(r.Missing, "perf_event_paranoid=2") || len(r.Instead) == 0 {
		t.Errorf("system-wide profile: %+v", r)
	}
	if r := byUse["perf_cpu_profile/of one process"]; !r.Ready || r.Degraded == "" {
		t.Errorf("own process profile: %+v", r)
	}
	if r := byUse["bpftrace_exec_program/"]; r.Ready || !strings.Contains(r.Missing, "bpftrace is not installed") {
		t.Errorf("bpftrace: %+v", r)
	}
	if r := byUse["perf_runq_latency/"]; r.Ready || r.Needs != "ebpf+btf+tracefs" {
		t.Errorf("runq: %+v", r)
	}
	if _, ok := byUse["search_files/"]; ok {
		t.Errorf("a tool that needs nothing is reported: %+v", rows)
	}
	for _, r := range New(hostinfo.New(hostinfo.Roots{}), installed("perf", "bpftrace")).Report(rootHost) {
		if !r.Ready || r.Degraded != "" {
			t.Errorf("root: %+v", r)
		}
	}
}
