//go:build amd64 || arm64

package bpfprog

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

var dnsFuncs = []string{"getaddrinfo", "gethostbyname", "gethostbyname2"}

// DNSLatency times the C library's name lookups for d, of process pid or
// (0) every process using the host's C library: it counts them in the
// kernel, and hands each record to onLookup as it is read. host is where
// pid's C library is found (nil: the live host).
func DNSLatency(ctx context.Context, host *hostinfo.Host, d time.Duration, pid uint32, progress Progress, onLookup func(DNSLookup)) (DNSResult, error) {
	lib, err := libcPath(liveHost(host), pid)
	if err != nil {
		return DNSResult{}, err
	}
	exe, err := link.OpenExecutable(lib)
	if err != nil {
		return DNSResult{}, fmt.Errorf("opening the C library %s: %w", lib, err)
	}
	syms, err := dynamicSymbols(lib)
	if err != nil {
		return DNSResult{}, err
	}
	spec, err := loadDns()
	var objs dnsObjects
	if err := load("DNS", spec, err, nil, &objs); err != nil {
		return DNSResult{}, err
	}
	defer objs.Close()
	opts := &link.UprobeOptions{PID: int(pid)}
	attach := []attacher{renameOnExec(objs.OnExec)}
	var probed []string
	for i, fn := range dnsFuncs {
		entry := []*ebpf.Program{objs.OnGetaddrinfo, objs.OnGethostbyname, objs.OnGethostbyname2}[i]
		if !syms[fn] {
			if i == 0 {
				return DNSResult{}, fmt.Errorf("%s exports no getaddrinfo", lib)
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
		if !decode(b, &r) || int(r.Key.Func) >= len(dnsFuncs) {
			return
		}
		onLookup(DNSLookup{Time: time.Duration(r.TS), Latency: time.Duration(r.LatencyNS), Ret: r.Ret, PID: r.Key.PID,
			Func: dnsFuncs[r.Key.Func], Comm: cstring(r.Comm[:]), Host: cstring(r.Key.Host[:])})
	}
	res := DNSResult{Mechanism: fmt.Sprintf("eBPF uprobes and uretprobes on %s in %s, counted in the kernel by process and name; names after exec from sched:sched_process_exec",
		strings.Join(probed, ", "), lib)}
	if err := trace(ctx, d, progress, objs.Events, onRecord, attach...); err != nil {
		return DNSResult{}, err
	}
	res.Lost, res.Unkeyed = counter(objs.Lost, 0), counter(objs.Unkeyed, 0)
	var k lookupKey
	var v struct{ Count, TotalNS, MaxNS uint64 }
	it := objs.ByHost.Iterate()
	for it.Next(&k, &v) {
		if int(k.Func) < len(dnsFuncs) {
			res.Hosts = append(res.Hosts, HostCount{PID: k.PID, Func: dnsFuncs[k.Func], Failed: k.Failed != 0, Code: k.Code,
				Host: cstring(k.Host[:]), Count: v.Count, Total: time.Duration(v.TotalNS), Max: time.Duration(v.MaxNS)})
		}
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return res, err
	}
	res.Names, err = processNames(objs.Names)
	return res, err
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
