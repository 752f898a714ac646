package ebpf

import (
	"bufio"
	"debug/elf"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
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

// dnsRecord mirrors struct dns_event (bpf/dns.bpf.c).
type dnsRecord struct {
	TS, LatencyNS uint64
	Ret           int64
	PID, Func     uint32
	Comm          [16]byte
	Host          [128]byte
}

// ErrNoLibc means no C library was found to probe.
var ErrNoLibc = errors.New("no C library found to probe")

// libcPath finds the C library: the one process pid has mapped (through
// its root, so a container's own libc is probed), else the host's.
func libcPath(pid uint32) (string, error) {
	if pid > 0 {
		f, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
		if err != nil {
			return "", fmt.Errorf("reading the mappings of pid %d: %w", pid, err)
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 6 {
				continue
			}
			if p := fields[5]; strings.HasPrefix(filepath.Base(p), "libc.so") || strings.HasPrefix(filepath.Base(p), "libc-") {
				return fmt.Sprintf("/proc/%d/root%s", pid, p), nil
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
