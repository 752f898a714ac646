package ebpf

import (
	"context"
	"net/netip"
	"time"
)

// TCPMechanism is how TCPTrace sees connections.
const TCPMechanism = "eBPF on tracepoint sock:inet_sock_set_state"

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
// or failed. Events go to
// onEvent as they are read; it returns how many a full ring lost.
func TCPTrace(ctx context.Context, d time.Duration, lifecycle bool, progress Progress, onEvent func(TCPEvent)) (lost uint64, err error) {
	spec, err := loadTcp()
	var objs tcpObjects
	if err := load("TCP", spec, err, map[string]any{"lifecycle": boolByte(lifecycle)}, &objs); err != nil {
		return 0, err
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
	err = trace(ctx, d, progress, objs.Events, onRecord, tracepoint("sock", "inet_sock_set_state", objs.OnState))
	return counter(objs.Lost), err
}

const afInet = 2

func addr(family uint16, b [16]byte) netip.Addr {
	if family == afInet {
		return netip.AddrFrom4([4]byte(b[:4]))
	}
	return netip.AddrFrom16(b).Unmap()
}
