package bpfprog

import (
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// DNSLookup is one name lookup through the C library.
type DNSLookup struct {
	Time    time.Duration // since boot, when it started
	Latency time.Duration
	Ret     int64 // the function's return: 0 is success for getaddrinfo
	PID     uint32
	Func    string // getaddrinfo, gethostbyname or gethostbyname2
	Comm    string
	Host    string
}

// HostCount is what DNSLatency counted for one process, function, result
// and name over the whole trace.
type HostCount struct {
	PID        uint32
	Func       string
	Failed     bool
	Code       int32 // getaddrinfo's return: 0 or an EAI_* error (negative)
	Host       string
	Count      uint64
	Total, Max time.Duration
}

// DNSResult is every C library lookup of a trace, counted in the kernel
// whatever records a full ring lost.
type DNSResult struct {
	Mechanism string // the uprobes and the library they are on
	Hosts     []HostCount
	Names     Names
	Unkeyed   uint64 // lookups the per-name table had no room for
	Lost      uint64 // records a full ring dropped; counted all the same
}

// lookupKey mirrors struct lookup_key (bpf/dns.bpf.c).
type lookupKey struct {
	PID, Func, Failed uint32
	Code              int32
	Host              [128]byte
}

// dnsRecord mirrors struct dns_event.
type dnsRecord struct {
	Key           lookupKey
	TS, LatencyNS uint64
	Ret           int64
	Comm          [16]byte
}

// ErrNoLibc means no C library was found to probe.
var ErrNoLibc = errors.New("no C library found to probe")

// libcPath finds the C library: the one process pid has mapped (through
// its root, so a container's own libc is probed), else the host's.
func libcPath(host *hostinfo.Host, pid uint32) (string, error) {
	if pid > 0 {
		mapped, err := host.MappedFiles(int(pid))
		if err != nil {
			return "", fmt.Errorf("reading the mappings of pid %d: %w", pid, err)
		}
		for _, p := range mapped {
			if strings.HasPrefix(filepath.Base(p), "libc.so") || strings.HasPrefix(filepath.Base(p), "libc-") {
				return host.ThroughRoot(int(pid), p), nil
			}
		}
		return "", fmt.Errorf("pid %d has no C library mapped (a static binary, or Go's own resolver): %w", pid, ErrNoLibc)
	}
	for _, p := range []string{
		"/lib/x86_64-linux-gnu/libc.so.6", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		"/lib/aarch64-linux-gnu/libc.so.6", "/usr/lib/aarch64-linux-gnu/libc.so.6",
		"/usr/lib64/libc.so.6", "/lib64/libc.so.6", "/usr/lib/libc.so.6", "/lib/libc.so.6",
	} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoLibc
}

// dynamicSymbols are the functions lib exports.
func dynamicSymbols(lib string) (map[string]bool, error) {
	f, err := elf.Open(lib)
	if err != nil {
		return nil, fmt.Errorf("reading the C library %s: %w", lib, err)
	}
	defer f.Close()
	syms, err := f.DynamicSymbols()
	if err != nil {
		return nil, fmt.Errorf("reading the symbols of %s: %w", lib, err)
	}
	out := map[string]bool{}
	for _, s := range syms {
		if elf.ST_TYPE(s.Info) == elf.STT_FUNC && s.Section != elf.SHN_UNDEF {
			out[strings.SplitN(s.Name, "@", 2)[0]] = true
		}
	}
	return out, nil
}
