package trace

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// tcpIn is perf_tcp_trace's input (spec 000 section 9.11).
type tcpIn struct {
	DurationSeconds int    `json:"duration_seconds,omitempty" default:"10"`
	PID             int    `json:"pid,omitempty" jsonschema:"only this pid"`
	LocalPort       int    `json:"local_port,omitempty" jsonschema:"only this local port"`
	RemotePort      int    `json:"remote_port,omitempty" jsonschema:"only this remote port"`
	Mode            string `json:"mode,omitempty" default:"lifecycle"`
}

type tcpRow struct {
	Time        float64  `json:"time_s" jsonschema:"seconds since the trace started"`
	PID         uint32   `json:"pid" jsonschema:"the process that connected; for an accepted connection, the one that closed it (0 or a bystander if the kernel closed it, as on a reset)"`
	Comm        string   `json:"comm"`
	LocalAddr   string   `json:"local_addr"`
	LocalPort   uint16   `json:"local_port"`
	RemoteAddr  string   `json:"remote_addr"`
	RemotePort  uint16   `json:"remote_port"`
	DurationMS  *float64 `json:"duration_ms,omitempty" jsonschema:"lifecycle: from setup to close"`
	RxBytes     *uint64  `json:"rx_bytes,omitempty" jsonschema:"lifecycle: bytes received in order (the kernel's bytes_received; the peer's FIN counts as 1)"`
	TxBytes     *uint64  `json:"tx_bytes,omitempty" jsonschema:"lifecycle: bytes the peer acknowledged (the kernel's bytes_acked; a connect's SYN and our FIN count as 1 each)"`
	Established *bool    `json:"established,omitempty" jsonschema:"connections: the handshake completed (false: refused or timed out)"`
}

// peerRow is what one process did with one remote end over the window,
// counted in the kernel.
type peerRow struct {
	PID        uint32   `json:"pid"`
	Comm       string   `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	RemoteAddr string   `json:"remote_addr"`
	RemotePort uint16   `json:"remote_port,omitempty" jsonschema:"connections it made: the port connected to"`
	LocalPort  uint16   `json:"local_port,omitempty" jsonschema:"connections it accepted: its own port"`
	Count      uint64   `json:"count"`
	Failed     *uint64  `json:"failed,omitempty" jsonschema:"connections: the handshake did not complete (refused or timed out)"`
	RxBytes    *uint64  `json:"rx_bytes,omitempty" jsonschema:"lifecycle"`
	TxBytes    *uint64  `json:"tx_bytes,omitempty" jsonschema:"lifecycle"`
	TotalMS    *float64 `json:"total_ms,omitempty" jsonschema:"lifecycle: the connections' durations summed"`
	MaxMS      *float64 `json:"max_ms,omitempty" jsonschema:"lifecycle: the longest"`
}

type tcpOut struct {
	Mechanism     string    `json:"mechanism"`
	Mode          string    `json:"mode"`
	Total         uint64    `json:"total" jsonschema:"connections matching the filters"`
	Failed        *uint64   `json:"failed,omitempty" jsonschema:"connections: those whose handshake did not complete"`
	Lost          uint64    `json:"lost" jsonschema:"records a full ring buffer dropped; the counts include them"`
	NotInTables   uint64    `json:"not_in_tables" jsonschema:"connections in total but in no by_peer row: the kernel's table (8192 rows) was full"`
	ByPeer        []peerRow `json:"by_peer" jsonschema:"every connection counted by process and remote end, most first"`
	ByPeerOf      listed    `json:"by_peer_shown" jsonschema:"by_peer: N of M shown, and which"`
	Connections   []tcpRow  `json:"connections" jsonschema:"records of connections"`
	ConnectionsOf listed    `json:"connections_shown" jsonschema:"connections: N of M shown, and which"`
}

func (s *Set) tcpTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_tcp_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace TCP connections (eBPF)",
		Description: "TCP connections (eBPF) by process and remote end: closed ones with duration and bytes, or connects and their results.",
		Timeout:     75 * time.Second,
	}, s.handleTCP).WithRange("duration_seconds", 1, 60).WithEnum("mode", "lifecycle", "connections").
		WithRange("local_port", 1, 65535).WithRange("remote_port", 1, 65535)
}

func (s *Set) handleTCP(ctx context.Context, call *tool.Call, in tcpIn) (tcpOut, error) {
	if err := s.preflight("perf_net_health (counters from /proc/net)"); err != nil {
		return tcpOut{}, err
	}
	mode := cmp.Or(in.Mode, "lifecycle")
	lifecycle := mode == "lifecycle"
	d := seconds(in.DurationSeconds, 10)
	out := tcpOut{Mechanism: bpfprog.TCPMechanism, Mode: mode}
	start := clock()
	records := newSample[tcpRow](maxRecords)
	o := bpfprog.TCPOptions{Lifecycle: lifecycle, TGID: uint32(max(in.PID, 0)), LocalPort: uint16(in.LocalPort), RemotePort: uint16(in.RemotePort)}
	res, err := bpfprog.TCPTrace(ctx, d, o, call.Elapsed(ctx, d, "tracing TCP"), func(e bpfprog.TCPEvent) {
		row := tcpRow{Time: relSeconds(e.Time, start), PID: e.PID, Comm: e.Comm,
			LocalAddr: e.Local.Addr().String(), LocalPort: e.Local.Port(), RemoteAddr: e.Remote.Addr().String(), RemotePort: e.Remote.Port()}
		if lifecycle {
			dur, rx, tx := ms(e.Duration), e.RxBytes, e.TxBytes
			row.DurationMS, row.RxBytes, row.TxBytes = &dur, &rx, &tx
		} else {
			est := e.Established
			row.Established = &est
		}
		records.add(row)
	})
	if err != nil {
		return tcpOut{}, tool.Failed(err)
	}
	out.Lost, out.NotInTables, out.Total = res.Lost, res.Unkeyed, res.Unkeyed
	peers := peerTable(s.host, res, lifecycle)
	var failedConns uint64
	for _, p := range peers {
		out.Total += p.Count
		if p.Failed != nil {
			failedConns += *p.Failed
		}
	}
	if !lifecycle {
		out.Failed = &failedConns
	}
	out.ByPeer = peers[:min(tableRows, len(peers))]
	out.Connections = records.items
	slices.SortStableFunc(out.Connections, func(a, b tcpRow) int { return cmp.Compare(a.Time, b.Time) })
	if out.Connections == nil {
		out.Connections = []tcpRow{}
	}
	if lifecycle {
		call.Warn("lifecycle lists connections both opened and closed during the trace; the pid is the process that connected or closed")
	}
	fitAnswer(&out, call.DataBudget(),
		[]cut{spread(&out.Connections, int(out.Total), &out.ConnectionsOf)},
		[]cut{head(&out.ByPeer, len(peers), "count", &out.ByPeerOf)})
	return out, nil
}

// peerTable turns the kernel's counts into rows, most connections first.
func peerTable(host *hostinfo.Host, res bpfprog.TCPResult, lifecycle bool) []peerRow {
	rows := make([]peerRow, 0, len(res.Peers))
	for _, p := range res.Peers {
		r := peerRow{PID: p.PID, Comm: res.Names.Of(host, p.PID), RemoteAddr: p.Remote.String(), RemotePort: p.RemotePort, LocalPort: p.LocalPort, Count: p.Count}
		if lifecycle {
			rx, tx, total, longest := p.RxBytes, p.TxBytes, ms(p.Total), ms(p.Max)
			r.RxBytes, r.TxBytes, r.TotalMS, r.MaxMS = &rx, &tx, &total, &longest
		} else {
			f := p.Failed
			r.Failed = &f
		}
		rows = append(rows, r)
	}
	slices.SortFunc(rows, func(a, b peerRow) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(a.PID, b.PID), cmp.Compare(a.RemoteAddr, b.RemoteAddr),
			cmp.Compare(a.RemotePort, b.RemotePort), cmp.Compare(a.LocalPort, b.LocalPort))
	})
	return rows
}

// exactPercentiles are nearest-rank percentiles of every value.
func exactPercentiles(v []float64) *latencyStats {
	slices.Sort(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))+0.999999)-1)] }
	return &latencyStats{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1]}
}
