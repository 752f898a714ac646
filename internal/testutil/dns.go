package testutil

import (
	"net"
	"testing"
)

// ServeDNS answers DNS queries on addr (UDP) until the test ends, by the
// first label of the question's name: "raw" gets NXDOMAIN, "drop" no answer
// at all, any other NOERROR with no records. Tracing tests send it queries
// from a child process and check what the trace saw.
func ServeDNS(t testing.TB, addr string) {
	t.Helper()
	pc, err := net.ListenPacket("udp", addr)
	if err != nil {
		t.Fatalf("listening for DNS on %s: %v", addr, err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 512)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if n < 13 || 13+int(buf[12]) > n {
				continue
			}
			resp := append([]byte(nil), buf[:n]...)
			resp[2], resp[3] = 0x81, 0x80 // an answer; recursion desired and available
			switch string(buf[13 : 13+int(buf[12])]) {
			case "drop":
				continue
			case "raw":
				resp[3] |= 3 // NXDOMAIN
			}
			_, _ = pc.WriteTo(resp, from)
		}
	}()
}
