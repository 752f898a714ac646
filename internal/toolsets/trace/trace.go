// Package trace is the eBPF toolset of spec 000 tier 3: block and run
// queue latency, syscalls, execs, TCP, files, DNS and VFS latency, traced
// by hostmcp's own CO-RE programs (internal/bpfprog) with no BCC, bpftrace or
// compiler at run time, and answered as typed data: histograms with
// percentiles, event records, top-N tables.
package trace

import (
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Set is the trace toolset.
type Set struct {
	// host names the processes, descriptors and disks the programs
	// report by number.
	host *hostinfo.Host
	// supported is bpfprog.Supported; a test gives another to play a host
	// without eBPF.
	supported func() error
}

// New builds the trace toolset reading the host through host; nil reads
// the live host.
func New(host *hostinfo.Host) *Set {
	if host == nil {
		host = hostinfo.New(hostinfo.Roots{})
	}
	return &Set{host: host, supported: bpfprog.Supported}
}

// Toolset lists the eBPF tracing tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "trace",
		Description:    "eBPF tracing with built-in CO-RE programs: block and run queue latency, syscall counts, execs, TCP connections, file operations, DNS and VFS latency.",
		DefaultEnabled: true,
		Tracing:        true,
		Tools: []*tool.Def{s.bioLatency(), s.runqLatency(), s.tcpTrace(), s.syscallCount(), s.execTrace(),
			s.fileTrace(), s.dnsLatency(), s.vfsLatency()},
	}
}

// maxRecords bounds the records a result lists, sampled over the whole
// window (listing.go); the answer may list fewer to fit the output cap.
const maxRecords = 500

// preflight answers CAPABILITY_MISSING when eBPF cannot run here; fallback
// names the tool that works without it, if there is one.
func (s *Set) preflight(fallback string) error {
	if err := s.supported(); err != nil {
		e := tool.Errorf(tool.CapabilityMissing, "eBPF tracing is not possible here: %v", err)
		if fallback != "" {
			return e.WithSuggestion("Use %s, which needs no eBPF; perf_info shows what this host supports.", fallback)
		}
		return e.WithSuggestion("Run hostmcp as root (or with CAP_BPF and CAP_PERFMON) on a kernel with BTF; perf_info shows what this host supports.")
	}
	return nil
}

// together splits progress between n traces run side by side. The first
// report, "attached", goes out only once every trace has attached, so that a
// workload started on it is seen by all of them; the elapsed-time reports
// after it come from the first trace alone.
func together(p bpfprog.Progress, n int) []bpfprog.Progress {
	var mu sync.Mutex
	attached := 0
	parts := make([]bpfprog.Progress, n)
	for i := range parts {
		first := true
		parts[i] = func(elapsed time.Duration) {
			mu.Lock()
			defer mu.Unlock()
			switch {
			case first:
				first = false
				if attached++; attached == n {
					p(0)
				}
			case i == 0 && attached == n:
				p(elapsed)
			}
		}
	}
	return parts
}

// seconds is a duration_seconds input with its default.
func seconds(n, def int) time.Duration {
	if n == 0 {
		n = def
	}
	return time.Duration(n) * time.Second
}

// clock is the monotonic time events are stamped with (bpf_ktime_get_ns);
// results give times relative to the start of the trace.
func clock() time.Duration {
	var ts unix.Timespec
	_ = unix.ClockGettime(unix.CLOCK_MONOTONIC, &ts)
	return time.Duration(ts.Nano())
}

func relSeconds(t, start time.Duration) float64 { return figures.Round3((t - start).Seconds()) }

func ms(d time.Duration) float64 { return figures.Round3(float64(d) / float64(time.Millisecond)) }

// errnoName is "ENOENT" for -2.
func errnoName(ret int64) string {
	if ret >= 0 {
		return ""
	}
	if name := unix.ErrnoName(unix.Errno(-ret)); name != "" {
		return name
	}
	return fmt.Sprintf("errno %d", -ret)
}

// blockDevices maps the kernel's dev_t as the block tracepoints report it
// (major<<20 | minor) to device names.
func (s *Set) blockDevices() map[uint32]string {
	out := map[uint32]string{}
	for _, d := range s.host.BlockDevices() {
		out[d.Major<<20|d.Minor] = d.Name
	}
	return out
}

func devName(names map[uint32]string, dev uint32) string {
	if n, ok := names[dev]; ok {
		return n
	}
	return fmt.Sprintf("%d:%d", dev>>20, dev&(1<<20-1))
}

// processOf is the process a process or thread id belongs to, and its
// name; PID_NOT_FOUND when there is none.
func (s *Set) processOf(id int) (tgid int, comm string, err error) {
	r, err := s.host.Processes(0)
	if err == nil && id > 0 {
		p, rerr := r.Read(id, false)
		if rerr == nil {
			return p.TGID, p.Comm, nil
		}
	}
	return 0, "", tool.Errorf(tool.PIDNotFound, "no process with pid %d", id)
}
