package bpfprog

import (
	"context"
	"errors"
	"net/netip"
	"time"

	"github.com/cilium/ebpf"
)

// TCPMechanism is how TCPTrace sees connections.
const TCPMechanism = "eBPF on tracepoint sock:inet_sock_set_state, counted in the kernel by process and remote end; names after exec from sched:sched_process_exec"

// TCPOptions select what TCPTrace follows; the filters apply in the kernel,
// to the counts and the records alike.
type TCPOptions struct {
	Lifecycle  bool   // each connection when it closes; else each outgoing connect
	TGID       uint32 // only this process's connections (the one credited); 0: all
	LocalPort  uint16 // 0: any
	RemotePort uint16 // 0: any
}

// PeerCount is what TCPTrace counted for one process and remote end over
// the whole trace.
type PeerCount struct {
	PID        uint32
	Remote     netip.Addr
	LocalPort  uint16 // an accepted connection's local port; else 0
	RemotePort uint16 // a connection made: the port connected to; else 0
	Count      uint64
	Failed     uint64 // connections: the handshake did not complete
	RxBytes    uint64 // lifecycle
	TxBytes    uint64 // lifecycle
	Total, Max time.Duration
}

// TCPResult is every connection of a trace, counted in the kernel
// whatever records a full ring lost.
type TCPResult struct {
	Peers   []PeerCount
	Names   Names
	Unkeyed uint64 // connections the per-peer table had no room for
	Lost    uint64 // records a full ring dropped; counted all the same
}

// TCPEvent is a closed connection (lifecycle) or a new outgoing one.
type TCPEvent struct {
	Time             time.Duration // since boot
	PID              uint32
	Comm             string
	Local, Remote    netip.AddrPort
	Duration         time.Duration // lifecycle
	RxBytes, TxBytes uint64        // lifecycle, as the kernel counts them: SYN and FIN count one byte each
	Established      bool          // connections: the handshake completed
}

// tcpRecord mirrors struct tcp_event (bpf/tcp.bpf.c).
type tcpRecord struct {
	TS, DurationNS, Rx, Tx uint64
	PID, Established       uint32
	Family, Sport, Dport   uint16
	_                      uint16
	Saddr, Daddr           [16]byte
	Comm                   [16]byte
}

// TCPTrace follows TCP for d: with lifecycle, each connection that closes
// (and was set up during the trace); else each active open, established
// or failed. It counts them in the kernel, and hands each record to
// onEvent as it is read.
func TCPTrace(ctx context.Context, d time.Duration, o TCPOptions, progress Progress, onEvent func(TCPEvent)) (TCPResult, error) {
	spec, err := loadTcp()
	var objs tcpObjects
	consts := map[string]any{"lifecycle": boolByte(o.Lifecycle), "target_tgid": o.TGID, "local_port": o.LocalPort, "remote_port": o.RemotePort}
	if err := load("TCP", spec, err, consts, &objs); err != nil {
		return TCPResult{}, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r tcpRecord
		if !decode(b, &r) {
			return
		}
		onEvent(TCPEvent{
			Time: time.Duration(r.TS), PID: r.PID, Comm: cstring(r.Comm[:]),
			Local: netip.AddrPortFrom(addr(r.Family, r.Saddr), r.Sport), Remote: netip.AddrPortFrom(addr(r.Family, r.Daddr), r.Dport),
			Duration: time.Duration(r.DurationNS), RxBytes: r.Rx, TxBytes: r.Tx, Established: r.Established != 0,
		})
	}
	err = trace(ctx, d, progress, objs.Events, onRecord, renameOnExec(objs.OnExec), tracepoint("sock", "inet_sock_set_state", objs.OnState))
	if err != nil {
		return TCPResult{}, err
	}
	res := TCPResult{Lost: counter(objs.Lost, 0), Unkeyed: counter(objs.Unkeyed, 0)}
	var k struct {
		TGID                 uint32
		Family, LPort, RPort uint16
		_                    [3]uint16
		Raddr                [16]byte
	}
	var v struct{ Count, Failed, Rx, Tx, TotalNS, MaxNS uint64 }
	it := objs.ByPeer.Iterate()
	for it.Next(&k, &v) {
		res.Peers = append(res.Peers, PeerCount{PID: k.TGID, Remote: addr(k.Family, k.Raddr), LocalPort: k.LPort, RemotePort: k.RPort,
			Count: v.Count, Failed: v.Failed, RxBytes: v.Rx, TxBytes: v.Tx, Total: time.Duration(v.TotalNS), Max: time.Duration(v.MaxNS)})
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return res, err
	}
	res.Names, err = processNames(objs.Names)
	return res, err
}

const afInet = 2

func addr(family uint16, b [16]byte) netip.Addr {
	if family == afInet {
		return netip.AddrFrom4([4]byte(b[:4]))
	}
	return netip.AddrFrom16(b).Unmap()
}
