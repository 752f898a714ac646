package bench

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// traceTools are the trace tools with, for each, the bpftrace one-liner
// that measures the same thing, so that their time from call to attached
// compares like with like. BEGIN runs once bpftrace has attached every
// probe.
var traceTools = []struct {
	tool, bpftrace string
	args           map[string]any
}{
	{"perf_bio_latency", `tracepoint:block:block_rq_issue { @s[args->dev, args->sector] = nsecs; }
tracepoint:block:block_rq_complete /@s[args->dev, args->sector]/ { @us[args->dev] = hist((nsecs - @s[args->dev, args->sector]) / 1000); delete(@s[args->dev, args->sector]); }`, nil},
	{"perf_runq_latency", `tracepoint:sched:sched_wakeup,tracepoint:sched:sched_wakeup_new { @q[args->pid] = nsecs; }
tracepoint:sched:sched_switch { if (curtask->__state == 0) { @q[args->prev_pid] = nsecs; } $ns = @q[args->next_pid]; if ($ns) { @us = hist((nsecs - $ns) / 1000); } delete(@q[args->next_pid]); }`, nil},
	{"perf_syscall_count", `tracepoint:raw_syscalls:sys_enter { @s[tid] = nsecs; }
tracepoint:raw_syscalls:sys_exit /@s[tid]/ { @n[args->id] = count(); @ns[args->id] = sum(nsecs - @s[tid]); delete(@s[tid]); }`, map[string]any{"include_latency": true}},
	{"perf_exec_trace", `tracepoint:syscalls:sys_enter_execve { printf("%d %s ", pid, str(args->filename)); join(args->argv); }`, nil},
	{"perf_tcp_trace", `tracepoint:sock:inet_sock_set_state /args->newstate == 7/ { printf("%d %d %d\n", pid, args->sport, args->dport); }`, nil},
	{"perf_file_trace", `tracepoint:syscalls:sys_enter_openat { printf("%d %s\n", pid, str(args->filename)); }
tracepoint:syscalls:sys_enter_unlinkat { printf("%d %s\n", pid, str(args->pathname)); }`, map[string]any{"mode": "opens"}},
	{"perf_dns_latency", `uprobe:/lib/x86_64-linux-gnu/libc.so.6:getaddrinfo { @s[tid] = nsecs; }
uretprobe:/lib/x86_64-linux-gnu/libc.so.6:getaddrinfo /@s[tid]/ { @us = hist((nsecs - @s[tid]) / 1000); delete(@s[tid]); }`, nil},
	{"perf_vfs_latency", `tracepoint:syscalls:sys_enter_read,tracepoint:syscalls:sys_enter_write { @s[tid] = nsecs; }
tracepoint:syscalls:sys_exit_read,tracepoint:syscalls:sys_exit_write /@s[tid]/ { @us = hist((nsecs - @s[tid]) / 1000); delete(@s[tid]); }`, nil},
}

// BenchmarkTraceAttach is, per trace tool, the time from the call leaving
// a stdio client to the tool's first progress notification, which it sends
// once its programs are attached; the call is then cancelled.
func BenchmarkTraceAttach(b *testing.B) {
	attached := make(chan struct{}, 16)
	client := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) { attached <- struct{}{} },
	})
	cmd := exec.Command(binary, "serve", "--state-dir", b.TempDir(), "--root", b.TempDir())
	cs, err := client.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer cs.Close()
	for _, tt := range traceTools {
		b.Run(tt.tool, func(b *testing.B) {
			args := map[string]any{"duration_seconds": 30}
			for k, v := range tt.args {
				args[k] = v
			}
			token := 0
			var samples []time.Duration
			for b.Loop() {
				token++
				start := time.Now()
				ctx, cancel := context.WithCancel(context.Background())
				done := make(chan error, 1)
				go func() {
					res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tt.tool, Arguments: args, Meta: mcp.Meta{"progressToken": token}})
					if err == nil && res.IsError {
						b.Errorf("%s: %+v", tt.tool, res.Content)
					}
					done <- err
				}()
				select {
				case <-attached:
					samples = append(samples, time.Since(start))
				case <-done:
					b.Fatalf("%s ended before attaching", tt.tool)
				}
				cancel()
				<-done
				for len(attached) > 0 {
					<-attached
				}
				settle()
			}
			reportLatency(b, samples)
		})
	}
}

// BenchmarkBpftraceAttach is the same for the equivalent bpftrace
// one-liners: from starting bpftrace to its BEGIN probe, which runs once
// every probe is attached.
func BenchmarkBpftraceAttach(b *testing.B) {
	bt, err := exec.LookPath("bpftrace")
	if err != nil {
		b.Skip("bpftrace is not installed")
	}
	for _, tt := range traceTools {
		b.Run(tt.tool, func(b *testing.B) {
			prog := tt.bpftrace + "\nBEGIN { printf(\"attached\\n\"); }"
			var samples []time.Duration
			for b.Loop() {
				start := time.Now()
				cmd := exec.Command(bt, "-e", prog)
				out, err := cmd.StdoutPipe()
				if err != nil {
					b.Fatal(err)
				}
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				sc := bufio.NewScanner(out)
				ok := false
				for sc.Scan() {
					if strings.TrimSpace(sc.Text()) == "attached" {
						ok = true
						break
					}
				}
				samples = append(samples, time.Since(start))
				_ = cmd.Process.Kill() // the bpftrace this benchmark started, by pid
				_ = cmd.Wait()
				if !ok {
					b.Fatalf("bpftrace never attached: %s", prog)
				}
				settle()
			}
			reportLatency(b, samples)
		})
	}
}

// settle lets the kernel finish releasing the last run's probes (uprobes
// wait out RCU grace periods after their descriptors close), so that each
// sample measures attaching on a quiet system, as an agent's call would.
func settle() {
	time.Sleep(500 * time.Millisecond)
}
