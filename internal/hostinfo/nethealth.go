package hostinfo

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/hostmcp/hostmcp/internal/figures"
)

// NetHealth is perf_net_health's data: interface errors and drops, TCP
// health and a socket summary like ss -s, with the network's suspicions.
type NetHealth struct {
	IntervalMS int64            `json:"interval_ms"`
	Interfaces []NetIfHealth    `json:"interfaces"`
	TCP        *TCPHealth       `json:"tcp,omitempty"`
	UDP        UDPHealth        `json:"udp"`
	Sockets    map[string]int64 `json:"sockets"` // /proc/net/sockstat{,6}: "TCP.inuse", "TCP.tw", "UDP6.inuse"...
	// Counters are the snmp and netstat counters that matter, nstat-named,
	// with their totals since boot and rates over the interval.
	Counters []NetCounter `json:"counters"`
	// ListenQueues are the listeners with connections waiting to be
	// accepted, fullest first.
	ListenQueues []Listener `json:"listen_queues,omitempty" jsonschema:"listening TCP sockets with connections waiting to be accepted, fullest first (at most 10), with the process holding each, like ss -lntp"`
}

// maxListenQueues bounds the listeners perf_net_health lists.
const maxListenQueues = 10

// NetIfHealth is one interface: error and drop rates and totals.
type NetIfHealth struct {
	Name           string  `json:"name"`
	RxPacketsPerS  float64 `json:"rx_packets_per_sec"`
	TxPacketsPerS  float64 `json:"tx_packets_per_sec"`
	RxErrorsPerS   float64 `json:"rx_errors_per_sec"`
	TxErrorsPerS   float64 `json:"tx_errors_per_sec"`
	RxDroppedPerS  float64 `json:"rx_dropped_per_sec"`
	TxDroppedPerS  float64 `json:"tx_dropped_per_sec"`
	RxErrorsTotal  uint64  `json:"rx_errors_total"`
	TxErrorsTotal  uint64  `json:"tx_errors_total"`
	RxDroppedTotal uint64  `json:"rx_dropped_total"`
	TxDroppedTotal uint64  `json:"tx_dropped_total"`
	RxFIFOTotal    uint64  `json:"rx_fifo_total"`
	TxCarrierTotal uint64  `json:"tx_carrier_total"`
}

// TCPHealth is TCP's retransmission and queue health.
type TCPHealth struct {
	RetransmitPercent   float64 `json:"retransmit_percent"`
	RetransSegsPerS     float64 `json:"retrans_segs_per_sec"`
	OutSegsPerS         float64 `json:"out_segs_per_sec"`
	InErrsPerS          float64 `json:"in_errs_per_sec"`
	CurrEstab           int64   `json:"curr_estab"`
	ListenOverflowsPerS float64 `json:"listen_overflows_per_sec"`
	ListenDropsPerS     float64 `json:"listen_drops_per_sec"`
	ListenOverflows     int64   `json:"listen_overflows_total"`
	ListenDrops         int64   `json:"listen_drops_total"`
	EstabResetsPerS     float64 `json:"estab_resets_per_sec"`
	AttemptFailsPerS    float64 `json:"attempt_fails_per_sec"`
	TimeoutsPerS        float64 `json:"timeouts_per_sec"`
}

// UDPHealth is UDP's error rates.
type UDPHealth struct {
	InErrorsPerS     float64 `json:"in_errors_per_sec"`
	RcvbufErrorsPerS float64 `json:"rcvbuf_errors_per_sec"`
	SndbufErrorsPerS float64 `json:"sndbuf_errors_per_sec"`
	NoPortsPerS      float64 `json:"no_ports_per_sec"`
}

// NetCounter is one nstat counter.
type NetCounter struct {
	Name   string  `json:"name"`
	Total  int64   `json:"total"`
	PerSec float64 `json:"per_sec"`
}

// netCountersThatMatter are the nstat counters an SRE looks at first.
var netCountersThatMatter = []string{
	"TcpActiveOpens", "TcpPassiveOpens", "TcpAttemptFails", "TcpEstabResets", "TcpRetransSegs", "TcpInErrs", "TcpOutRsts",
	"TcpExtListenOverflows", "TcpExtListenDrops", "TcpExtTCPTimeouts", "TcpExtTCPSynRetrans", "TcpExtTCPLostRetransmit",
	"TcpExtTCPFastRetrans", "TcpExtTCPSlowStartRetrans", "TcpExtTCPBacklogDrop", "TcpExtTCPRcvQDrop", "TcpExtPruneCalled",
	"TcpExtTCPAbortOnMemory", "TcpExtTCPAbortOnTimeout", "TcpExtTCPOFOQueue", "TcpExtTCPZeroWindowDrop", "TcpExtTCPMemoryPressures",
	"TcpExtSyncookiesSent", "TcpExtTCPReqQFullDrop", "IpInDiscards", "IpOutDiscards", "IpOutNoRoutes",
	"UdpInErrors", "UdpRcvbufErrors", "UdpSndbufErrors", "UdpNoPorts",
}

// ErrNoInterface is returned when the interface asked for does not exist.
var ErrNoInterface = fmt.Errorf("no such interface")

// BuildNetHealth computes perf_net_health between two readings; iface, when
// set, keeps only that interface.
func BuildNetHealth(a, b Counters, g Gauges, iface string, withTCP bool) (NetHealth, error) {
	dt := b.Time.Sub(a.Time).Seconds()
	if dt <= 0 {
		dt = 1e-9
	}
	if iface != "" && !slices.ContainsFunc(b.net, func(n netDevStat) bool { return n.Name == iface }) {
		return NetHealth{}, fmt.Errorf("interface %q: %w", iface, ErrNoInterface)
	}
	r := func(x, y uint64) float64 { return figures.Round2(float64(delta(x, y)) / dt) }
	sr := func(k string) float64 { return figures.Round2(float64(sdelta(a.snmp[k], b.snmp[k])) / dt) }
	nh := NetHealth{IntervalMS: b.Time.Sub(a.Time).Milliseconds(), Interfaces: []NetIfHealth{}, Sockets: g.Sockstat, Counters: []NetCounter{}}
	prev := map[string]netDevStat{}
	for _, n := range a.net {
		prev[n.Name] = n
	}
	for _, n := range b.net {
		p, ok := prev[n.Name]
		if !ok || (iface != "" && n.Name != iface) {
			continue
		}
		nh.Interfaces = append(nh.Interfaces, NetIfHealth{Name: n.Name,
			RxPacketsPerS: r(p.RxPackets, n.RxPackets), TxPacketsPerS: r(p.TxPackets, n.TxPackets),
			RxErrorsPerS: r(p.RxErrors, n.RxErrors), TxErrorsPerS: r(p.TxErrors, n.TxErrors),
			RxDroppedPerS: r(p.RxDropped, n.RxDropped), TxDroppedPerS: r(p.TxDropped, n.TxDropped),
			RxErrorsTotal: n.RxErrors, TxErrorsTotal: n.TxErrors, RxDroppedTotal: n.RxDropped, TxDroppedTotal: n.TxDropped,
			RxFIFOTotal: n.RxFIFO, TxCarrierTotal: n.TxCarrier})
	}
	if withTCP {
		t := &TCPHealth{RetransSegsPerS: sr("TcpRetransSegs"), OutSegsPerS: sr("TcpOutSegs"), InErrsPerS: sr("TcpInErrs"),
			CurrEstab: b.snmp["TcpCurrEstab"], ListenOverflowsPerS: sr("TcpExtListenOverflows"), ListenDropsPerS: sr("TcpExtListenDrops"),
			ListenOverflows: b.snmp["TcpExtListenOverflows"], ListenDrops: b.snmp["TcpExtListenDrops"],
			EstabResetsPerS: sr("TcpEstabResets"), AttemptFailsPerS: sr("TcpAttemptFails"), TimeoutsPerS: sr("TcpExtTCPTimeouts")}
		if out := sdelta(a.snmp["TcpOutSegs"], b.snmp["TcpOutSegs"]); out > 0 {
			t.RetransmitPercent = figures.Round2(float64(sdelta(a.snmp["TcpRetransSegs"], b.snmp["TcpRetransSegs"])) / float64(out) * 100)
		}
		nh.TCP = t
		nh.ListenQueues = busyListeners(g.Listeners)
	}
	nh.UDP = UDPHealth{InErrorsPerS: sr("UdpInErrors"), RcvbufErrorsPerS: sr("UdpRcvbufErrors"), SndbufErrorsPerS: sr("UdpSndbufErrors"), NoPortsPerS: sr("UdpNoPorts")}
	for _, k := range netCountersThatMatter {
		if v, ok := b.snmp[k]; ok {
			nh.Counters = append(nh.Counters, NetCounter{Name: k, Total: v, PerSec: sr(k)})
		}
	}
	return nh, nil
}

// busyListeners keeps the listeners with a non-empty accept queue, fullest
// first.
func busyListeners(ls []Listener) []Listener {
	var out []Listener
	for _, l := range ls {
		if l.AcceptQueue > 0 {
			out = append(out, l)
		}
	}
	slices.SortStableFunc(out, func(a, b Listener) int { return cmp.Compare(QueueFill(b), QueueFill(a)) })
	return out[:min(len(out), maxListenQueues)]
}

// QueueFill is how full an accept queue is, in percent of its backlog (the
// kernel admits one more than the backlog, so a full queue reads over 100).
func QueueFill(l Listener) float64 {
	if l.Backlog == 0 {
		return 100
	}
	return figures.Round1(float64(l.AcceptQueue) / float64(l.Backlog) * 100)
}
