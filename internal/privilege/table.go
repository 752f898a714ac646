package privilege

// Rule is what one use of a tool needs before it may start.
type Rule struct {
	Tool string
	// When selects the calls the rule covers by their arguments: "" every
	// call, "pid" those that give a pid, "!pid" those that do not,
	// "mode=trace" those with that value.
	When string
	// Use names the calls When selects, in messages ("system-wide").
	Use string
	// Program is the program the calls start ("perf", "bpftrace"), or ""
	// for hostmcp's own eBPF programs. A rule whose program is not installed
	// is not judged: the tool says so itself, or falls back.
	Program string
	// Needs must all be met, or the call is refused before it starts.
	Needs Need
	// Wants are used when met; without them the call runs and a warning
	// says Degraded.
	Wants    Need
	Degraded string
	// Target names the argument holding a process the call looks into. The
	// kernel lets it only into a dumpable process with the same ids as the
	// server's, unless it holds CAP_SYS_PTRACE (and, for perf,
	// CAP_PERFMON).
	Target string
	// Instead are the tools that answer from /proc without the privilege.
	Instead []Alt
}

// Alt is a tool to use instead, with the arguments to give it.
type Alt struct {
	Tool string
	Args string // JSON; N stands for a number the caller picks
	Why  string
}

// Table is every privileged tool's needs, by use: the one place they are
// declared. Each tool that starts programs has a rule here, those that need
// nothing of the kernel (rg, journalctl, git) included, so that the
// registry's test catches a new one that declares nothing.
func Table() []Rule {
	cpu := []Alt{{"proc_list", "", "CPU per process, from /proc"}, {"perf_thread_profile", `{"pid":N}`, "CPU per thread of one process"}}
	waits := Alt{"perf_thread_profile", `{"pid":N,"include_offcpu":true}`, "each thread's time running, waiting for a CPU and off CPU, from schedstat"}
	diskstats := Alt{"perf_io_latency", `{"mode":"snapshot"}`, "latency per device, from /proc/diskstats"}
	procIO := Alt{"perf_io_layers", `{"mode":"procfs","include_details":true}`, "read and write calls and bytes per process, from /proc/PID/io"}
	net := Alt{"perf_net_health", "", "retransmits, resets, drops and UDP errors, from /proc/net"}
	info := Alt{"perf_info", "", "what this host lets hostmcp measure"}
	const traced = EBPF | BTF | Tracefs
	return []Rule{
		{Tool: "perf_cpu_profile", When: "!pid", Use: "system-wide", Program: "perf", Needs: PerfSystem, Instead: cpu},
		{Tool: "perf_cpu_profile", When: "pid", Use: "of one process", Program: "perf", Needs: PerfOwn, Target: "pid",
			Wants: PerfKernel, Degraded: "kernel frames are left out: perf samples user space only", Instead: cpu[1:]},
		{Tool: "perf_offcpu_profile", Program: "perf", Needs: PerfRaw | Tracefs, Instead: []Alt{waits}},
		{Tool: "perf_sched_latency", Program: "perf", Needs: PerfRaw | Tracefs,
			Instead: []Alt{waits, {"perf_use_check", "", "run queue length and CPU pressure"}}},
		{Tool: "perf_io_latency", When: "mode=trace", Use: "mode trace", Program: "bpftrace", Needs: Bpftrace, Instead: []Alt{diskstats}},
		{Tool: "perf_io_layers", When: "mode=ebpf", Use: "mode ebpf", Needs: traced,
			Instead: []Alt{{"perf_io_layers", `{"mode":"procfs"}`, "VFS traffic from /proc/PID/io"}}},
		{Tool: "perf_fd_trace", Target: "pid",
			Instead: []Alt{{"perf_thread_profile", `{"pid":N}`, "the process's threads, their CPU and states"}}},

		{Tool: "perf_bio_latency", Needs: traced, Instead: []Alt{diskstats}},
		{Tool: "perf_runq_latency", Needs: traced, Instead: []Alt{waits, {"perf_use_check", "", "run queue length and CPU pressure"}}},
		{Tool: "perf_tcp_trace", Needs: traced, Instead: []Alt{net}},
		{Tool: "perf_syscall_count", Needs: traced, Instead: []Alt{procIO}},
		{Tool: "perf_exec_trace", Needs: traced, Instead: []Alt{{"proc_tree", "", "the processes alive now (short-lived ones are missed)"}}},
		{Tool: "perf_file_trace", Needs: traced, Instead: []Alt{{"perf_fd_trace", `{"pid":N}`, "one process's open files over time"}, procIO}},
		{Tool: "perf_dns_latency", Needs: traced, Instead: []Alt{net}},
		{Tool: "perf_vfs_latency", Needs: traced, Instead: []Alt{diskstats, procIO}},

		{Tool: "bpftrace_list_probes", Program: "bpftrace", Needs: Bpftrace, Instead: []Alt{info}},
		{Tool: "bpftrace_list_helpers", Program: "bpftrace", Needs: Bpftrace, Instead: []Alt{info}},
		{Tool: "bpftrace_exec_program", Program: "bpftrace", Needs: Bpftrace,
			Instead: []Alt{{"perf_use_check", "", "utilisation, saturation and errors from /proc"}, {"perf_snapshot", "", "rates of CPU, memory, disks and network"}}},

		// Programs that need nothing of the kernel beyond what any user has.
		{Tool: "search_files", Program: "rg"},
		{Tool: "search_content", Program: "rg"},
		{Tool: "sys_logs", Program: "journalctl"},
		{Tool: "mcp_run_onboarding", Program: "git"},
	}
}
