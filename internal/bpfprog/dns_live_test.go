package bpfprog

import (
	"context"
	"net"
	"net/netip"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// python3's socket.getaddrinfo goes through the C library and is timed.
func TestDNSLatencyLive(t *testing.T) {
	requireEBPF(t)
	_, start := testutil.GatedPython(t, "import socket; socket.getaddrinfo('localhost', 80)")
	work := onAttach(start)
	var got []DNSLookup
	res, err := DNSLatency(context.Background(), nil, 2*time.Second, 0, work, func(l DNSLookup) { got = append(got, l) })
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(got, func(l DNSLookup) bool {
		return l.Host == "localhost" && l.Func == "getaddrinfo" && l.Ret == 0 && l.Latency > 0 && l.Comm == "python3"
	})
	if i < 0 {
		t.Fatalf("%s: no getaddrinfo(localhost) among %+v", res.Mechanism, got)
	}
	// Counted in the kernel too, under the process and the name.
	if !slices.ContainsFunc(res.Hosts, func(h HostCount) bool {
		return h.PID == got[i].PID && h.Host == "localhost" && h.Func == "getaddrinfo" && !h.Failed && h.Count >= 1 && res.Names.Of(hostinfo.New(hostinfo.Roots{}), h.PID) == "python3"
	}) {
		t.Fatalf("python's lookup is not counted: %+v", res.Hosts)
	}
}

// wireServerAddr is where TestDNSWireLive's DNS server listens: a loopback
// address of its own, so no local resolver on 127.0.0.1:53 is in the way.
const wireServerAddr = "127.0.0.153:53"

// resolveWorkload is the child TestDNSWireLive traces: Go's own resolver
// (a connected UDP socket: write and read), then raw queries on an
// unconnected socket (sendto and recvfrom), one of which goes unanswered.
func resolveWorkload() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	r := &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", wireServerAddr)
	}}
	_, _ = r.LookupHost(ctx, "wire.hostmcp.test")
	c, err := net.ListenUDP("udp4", nil)
	if err != nil {
		os.Exit(2)
	}
	server := net.UDPAddrFromAddrPort(netip.MustParseAddrPort(wireServerAddr))
	for i, name := range []string{"raw.hostmcp.test", "drop.hostmcp.test"} {
		_, _ = c.WriteToUDP(dnsQuery(uint16(0x4000+i), name, 16), server)
		_ = c.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
		buf := make([]byte, 512)
		_, _, _ = c.ReadFromUDP(buf)
	}
	os.Exit(0)
}

// dnsQuery is a DNS query message for name and type t.
func dnsQuery(id uint16, name string, t uint16) []byte {
	b := []byte{byte(id >> 8), byte(id), 1, 0, 0, 1, 0, 0, 0, 0, 0, 0}
	for _, l := range strings.Split(name, ".") {
		b = append(b, byte(len(l)))
		b = append(b, l...)
	}
	return append(b, 0, byte(t>>8), byte(t), 0, 1)
}

// DNS queries over UDP to port 53 are timed whatever resolver sends them:
// Go's (write and read on a connected socket) and raw ones (sendto and
// recvfrom); an unanswered one is listed as such.
func TestDNSWireLive(t *testing.T) {
	requireEBPF(t)
	testutil.ServeDNS(t, wireServerAddr)
	child := exec.Command(os.Args[0], "-test.run=^$")
	child.Env = append(os.Environ(), ebpfWorkloadEnv+"=resolve")
	var started sync.WaitGroup
	started.Add(1)
	work := onAttach(func() {
		defer started.Done()
		if err := child.Start(); err != nil {
			t.Error(err)
		}
	})
	var got []DNSQuery
	res, err := DNSWire(context.Background(), 3*time.Second, 0, work, func(q DNSQuery) { got = append(got, q) })
	started.Wait()
	if child.Process != nil {
		_ = child.Wait()
	}
	if err != nil {
		t.Fatal(err)
	}
	find := func(list []DNSQuery, name, typ string) *DNSQuery {
		for i, q := range list {
			if q.Name == name && q.Type == typ && int(q.PID) == child.Process.Pid {
				return &list[i]
			}
		}
		return nil
	}
	for _, want := range []struct{ name, typ, rcode string }{
		{"wire.hostmcp.test", "A", "NOERROR"}, {"wire.hostmcp.test", "AAAA", "NOERROR"}, {"raw.hostmcp.test", "TXT", "NXDOMAIN"},
	} {
		q := find(got, want.name, want.typ)
		if q == nil || !q.Answered || q.Rcode != want.rcode || q.Server != wireServerAddr || q.Latency <= 0 || q.Comm == "" {
			t.Errorf("%s %s: got %+v among %+v", want.name, want.typ, q, got)
		}
	}
	if q := find(res.Unanswered, "drop.hostmcp.test", "TXT"); q == nil || q.Answered {
		t.Errorf("the unanswered query: %+v among %+v", q, res.Unanswered)
	}
	// Four queries at least (Go's A and AAAA, two raw ones), one unanswered
	// and one NXDOMAIN, counted in the kernel under the child.
	i := slices.IndexFunc(res.Procs, func(p WireCount) bool { return int(p.PID) == child.Process.Pid })
	if i < 0 {
		t.Fatalf("the child's queries are not counted: %+v", res.Procs)
	}
	if p := res.Procs[i]; p.Sent < 4 || p.Answered < 3 || p.Sent-p.Answered < 1 || p.Errors < 1 || p.MaxLatency <= 0 {
		t.Errorf("the child's queries: %+v", p)
	}
}
