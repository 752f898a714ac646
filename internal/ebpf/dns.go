//go:build amd64 || arm64

package ebpf

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
)

var dnsFuncs = []string{"getaddrinfo", "gethostbyname", "gethostbyname2"}

// DNSLatency times the C library's name lookups for d, of process pid or
// (0) every process using the host's C library; each lookup goes to onLookup.
// It returns the mechanism (the uprobes and the library they are on) and
// how many records a full ring lost.
func DNSLatency(ctx context.Context, d time.Duration, pid uint32, progress Progress, onLookup func(DNSLookup)) (mechanism string, lost uint64, err error) {
	lib, err := libcPath(pid)
	if err != nil {
		return "", 0, err
	}
	exe, err := link.OpenExecutable(lib)
	if err != nil {
		return "", 0, fmt.Errorf("opening the C library %s: %w", lib, err)
	}
	syms, err := dynamicSymbols(lib)
	if err != nil {
		return "", 0, err
	}
	spec, err := loadDns()
	var objs dnsObjects
	if err := load("DNS", spec, err, nil, &objs); err != nil {
		return "", 0, err
	}
	defer objs.Close()
	opts := &link.UprobeOptions{PID: int(pid)}
	var attach []attacher
	var probed []string
	for i, fn := range dnsFuncs {
		entry := []*ebpf.Program{objs.OnGetaddrinfo, objs.OnGethostbyname, objs.OnGethostbyname2}[i]
		if !syms[fn] {
			if i == 0 {
				return "", 0, fmt.Errorf("%s exports no getaddrinfo", lib)
			}
			continue // an old or unusual libc: probe what there is
		}
		probed = append(probed, fn)
		attach = append(attach,
			func() (link.Link, error) { return uprobe(exe, fn, entry, opts, false) },
			func() (link.Link, error) { return uprobe(exe, fn, objs.OnReturn, opts, true) })
	}
	onRecord := func(b []byte) {
		var r dnsRecord
		if !decode(b, &r) || int(r.Func) >= len(dnsFuncs) {
			return
		}
		onLookup(DNSLookup{Time: time.Duration(r.TS), Latency: time.Duration(r.LatencyNS), Ret: r.Ret, PID: r.PID,
			Func: dnsFuncs[r.Func], Comm: cstring(r.Comm[:]), Host: cstring(r.Host[:])})
	}
	mechanism = fmt.Sprintf("eBPF uprobes and uretprobes on %s in %s", strings.Join(probed, ", "), lib)
	err = trace(ctx, d, progress, objs.Events, onRecord, attach...)
	return mechanism, counter(objs.Lost), err
}

func uprobe(exe *link.Executable, fn string, prog *ebpf.Program, opts *link.UprobeOptions, ret bool) (link.Link, error) {
	var l link.Link
	var err error
	if ret {
		l, err = exe.Uretprobe(fn, prog, opts)
	} else {
		l, err = exe.Uprobe(fn, prog, opts)
	}
	if err != nil {
		return nil, fmt.Errorf("attaching a uprobe to %s: %w", fn, err)
	}
	return l, nil
}
