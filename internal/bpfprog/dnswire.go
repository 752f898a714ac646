package bpfprog

import (
	"context"
	"errors"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/cilium/ebpf"
)

// DNSWireMechanism is how DNSWire sees queries.
const DNSWireMechanism = "eBPF on tracepoints raw_syscalls:sys_enter and raw_syscalls:sys_exit (UDP to port 53: connect, write, sendto, sendmsg, sendmmsg; the answer by read, recvfrom, recvmsg), counted in the kernel by process; names after exec from sched:sched_process_exec"

// WireCount is what DNSWire counted for one process over the whole trace.
type WireCount struct {
	PID                      uint32
	Sent, Answered, Errors   uint64 // Errors: answers whose rcode is not NOERROR
	TotalLatency, MaxLatency time.Duration
}

// DNSWireResult is a trace of the queries on the wire: each process's,
// counted in the kernel whatever records a full ring lost, and the queries
// left unanswered at the end.
type DNSWireResult struct {
	Procs      []WireCount
	Names      Names
	Unanswered []DNSQuery
	Unkeyed    uint64 // queries and answers the per-process table had no room for
	Lost       uint64 // answer records a full ring dropped; counted all the same
}

// DNSQuery is one DNS query a program sent over UDP to port 53.
type DNSQuery struct {
	Time     time.Duration // since boot, when it was sent
	Latency  time.Duration // until its answer was read
	Answered bool
	PID, TID uint32
	Comm     string
	Name     string // the question's name, without the final dot
	Type     string // A, AAAA, PTR, ... or TYPEn
	Rcode    string // the answer's: NOERROR, NXDOMAIN, SERVFAIL, ...
	Answers  int
	Server   string // the server's address and port
}

// wireRecord mirrors struct wire_event (bpf/dnswire.bpf.c).
type wireRecord struct {
	TS, LatencyNS uint64
	PID, TID, Len uint32
	Flags         uint16
	Answers       uint16
	Server        wireServer
	Comm          [16]byte
	Pkt           [256]byte
}

// wireServer mirrors struct server.
type wireServer struct {
	Family, Port uint16
	Addr         [16]byte
}

// wireQuery mirrors struct query, what is left of an unanswered query.
type wireQuery struct {
	TS       uint64
	TID, Len uint32
	Server   wireServer
	Comm     [16]byte
	Pkt      [256]byte
	Pad      [4]byte // the C struct's alignment to 8 bytes
}

// DNSWire times the DNS queries programs send over UDP to port 53, of
// process pid or (0) every process, whatever resolver they use: it counts
// them by process in the kernel, and hands each answered query to onQuery
// as its answer is read.
func DNSWire(ctx context.Context, d time.Duration, pid uint32, progress Progress, onQuery func(DNSQuery)) (DNSWireResult, error) {
	spec, err := loadDnswire()
	var objs dnswireObjects
	consts := map[string]any{
		"nr_connect": nrs.connect, "nr_close": nrs.close, "nr_read": nrs.read, "nr_write": nrs.write,
		"nr_sendto": nrs.sendto, "nr_sendmsg": nrs.sendmsg, "nr_sendmmsg": nrs.sendmmsg,
		"nr_recvfrom": nrs.recvfrom, "nr_recvmsg": nrs.recvmsg,
		"target_tgid": pid, "self_tgid": selfTGID,
	}
	if err := load("DNS wire", spec, err, consts, &objs); err != nil {
		return DNSWireResult{}, err
	}
	defer objs.Close()
	onRecord := func(b []byte) {
		var r wireRecord
		if !decode(b, &r) {
			return
		}
		q := wireQueryOf(r.TS, r.TID, r.Len, r.Server, r.Comm, r.Pkt)
		q.PID, q.Latency, q.Answered, q.Answers = r.PID, time.Duration(r.LatencyNS), true, int(r.Answers)
		q.Rcode = rcodeName(r.Flags & 0xf)
		onQuery(q)
	}
	err = trace(ctx, d, progress, objs.Events, onRecord,
		renameOnExec(objs.OnExec),
		tracepoint("raw_syscalls", "sys_enter", objs.OnEnter),
		tracepoint("raw_syscalls", "sys_exit", objs.OnExit))
	if err != nil {
		return DNSWireResult{}, err
	}
	res := DNSWireResult{Lost: counter(objs.Lost, 0), Unkeyed: counter(objs.Unkeyed, 0)}
	if res.Unanswered, err = leftQueries(objs.Queries); err != nil {
		return res, err
	}
	var tgid uint32
	var v struct{ Sent, Answered, Errors, TotalNS, MaxNS uint64 }
	it := objs.ByTgid.Iterate()
	for it.Next(&tgid, &v) {
		res.Procs = append(res.Procs, WireCount{PID: tgid, Sent: v.Sent, Answered: v.Answered, Errors: v.Errors,
			TotalLatency: time.Duration(v.TotalNS), MaxLatency: time.Duration(v.MaxNS)})
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return res, err
	}
	res.Names, err = processNames(objs.Names)
	return res, err
}

// leftQueries lists the queries that were sent and never answered.
func leftQueries(m *ebpf.Map) ([]DNSQuery, error) {
	var out []DNSQuery
	var key struct {
		TGID, FD uint32
		ID, Pad  uint16
	}
	var v wireQuery
	it := m.Iterate()
	for it.Next(&key, &v) {
		q := wireQueryOf(v.TS, v.TID, v.Len, v.Server, v.Comm, v.Pkt)
		q.PID = key.TGID
		out = append(out, q)
	}
	if err := it.Err(); err != nil && !errors.Is(err, ebpf.ErrIterationAborted) {
		return out, err
	}
	return out, nil
}

func wireQueryOf(ts uint64, tid, n uint32, srv wireServer, comm [16]byte, pkt [256]byte) DNSQuery {
	q := DNSQuery{Time: time.Duration(ts), TID: tid, Comm: cstring(comm[:]), Server: serverString(srv)}
	q.Name, q.Type = question(pkt[:min(int(n), len(pkt))])
	return q
}

func serverString(s wireServer) string {
	var a netip.Addr
	switch s.Family {
	case 2:
		a = netip.AddrFrom4([4]byte(s.Addr[:4]))
	case 10:
		a = netip.AddrFrom16(s.Addr)
	default:
		return ""
	}
	return netip.AddrPortFrom(a, s.Port).String()
}

// question decodes the first question of a DNS message: its name (labels
// joined by dots; "." for the root) and its type. A message cut short
// gives what could be read.
func question(pkt []byte) (name, typ string) {
	if len(pkt) < 12 {
		return "", ""
	}
	var labels []string
	i := 12
	for i < len(pkt) {
		n := int(pkt[i])
		if n == 0 {
			i++
			break
		}
		if n&0xc0 != 0 || i+1+n > len(pkt) { // no compression in a question; or cut
			return strings.Join(labels, "."), ""
		}
		labels = append(labels, string(pkt[i+1:i+1+n]))
		i += 1 + n
	}
	name = strings.Join(labels, ".")
	if name == "" {
		name = "."
	}
	if i+2 > len(pkt) {
		return name, ""
	}
	return name, typeName(uint16(pkt[i])<<8 | uint16(pkt[i+1]))
}

var dnsTypes = map[uint16]string{
	1: "A", 2: "NS", 5: "CNAME", 6: "SOA", 12: "PTR", 15: "MX", 16: "TXT", 28: "AAAA",
	33: "SRV", 35: "NAPTR", 43: "DS", 48: "DNSKEY", 64: "SVCB", 65: "HTTPS", 255: "ANY", 257: "CAA",
}

func typeName(t uint16) string {
	if s, ok := dnsTypes[t]; ok {
		return s
	}
	return "TYPE" + strconv.Itoa(int(t))
}

var rcodes = []string{"NOERROR", "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMP", "REFUSED"}

func rcodeName(c uint16) string {
	if int(c) < len(rcodes) {
		return rcodes[c]
	}
	return "RCODE" + strconv.Itoa(int(c))
}
