package trace

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/ebpf"
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

type tcpOut struct {
	Mechanism   string   `json:"mechanism"`
	Mode        string   `json:"mode"`
	Total       int      `json:"total" jsonschema:"connections matching the filters"`
	Lost        uint64   `json:"lost" jsonschema:"records the kernel dropped because the ring buffer was full"`
	Connections []tcpRow `json:"connections" jsonschema:"in order, at most 500"`
}

func (s *Set) tcpTrace() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_tcp_trace",
		Kind:        tool.ReadOnly,
		Programs:    true,
		Title:       "Trace TCP connections (eBPF)",
		Description: "TCP connections (eBPF): closed ones with duration and bytes, or outgoing connects and their results.",
		Timeout:     75 * time.Second,
	}, s.handleTCP).WithRange("duration_seconds", 1, 60).WithEnum("mode", "lifecycle", "connections").
		WithRange("local_port", 1, 65535).WithRange("remote_port", 1, 65535)
}

func (s *Set) handleTCP(ctx context.Context, call *tool.Call, in tcpIn) (tcpOut, error) {
	if err := preflight("perf_net_health (counters from /proc/net)"); err != nil {
		return tcpOut{}, err
	}
	mode := cmp.Or(in.Mode, "lifecycle")
	lifecycle := mode == "lifecycle"
	d := seconds(in.DurationSeconds, 10)
	out := tcpOut{Mechanism: ebpf.TCPMechanism, Mode: mode, Connections: []tcpRow{}}
	start := clock()
	lost, err := ebpf.TCPTrace(ctx, d, lifecycle, progress(ctx, call, d, "tracing TCP"), func(e ebpf.TCPEvent) {
		if (in.PID > 0 && e.PID != uint32(in.PID)) || (in.LocalPort > 0 && e.Local.Port() != uint16(in.LocalPort)) ||
			(in.RemotePort > 0 && e.Remote.Port() != uint16(in.RemotePort)) {
			return
		}
		out.Total++
		if len(out.Connections) >= maxRecords {
			return
		}
		row := tcpRow{Time: relSeconds(e.Time, start), PID: e.PID, Comm: e.Comm,
			LocalAddr: e.Local.Addr().String(), LocalPort: e.Local.Port(), RemoteAddr: e.Remote.Addr().String(), RemotePort: e.Remote.Port()}
		if lifecycle {
			dur, rx, tx := ms(e.Duration), e.RxBytes, e.TxBytes
			row.DurationMS, row.RxBytes, row.TxBytes = &dur, &rx, &tx
		} else {
			est := e.Established
			row.Established = &est
		}
		out.Connections = append(out.Connections, row)
	})
	if err != nil {
		return tcpOut{}, failed(err)
	}
	out.Lost = lost
	if lifecycle {
		call.Warn("lifecycle lists connections both opened and closed during the trace; the pid is the process that connected or closed")
	}
	return out, nil
}

// exactPercentiles are nearest-rank percentiles of every value.
func exactPercentiles(v []float64) *latencyStats {
	slices.Sort(v)
	at := func(q float64) float64 { return v[min(len(v)-1, int(q*float64(len(v))+0.999999)-1)] }
	return &latencyStats{P50: at(0.50), P95: at(0.95), P99: at(0.99), Max: v[len(v)-1]}
}
