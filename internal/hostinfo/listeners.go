package hostinfo

import (
	"encoding/binary"
	"fmt"
	"net/netip"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Listener is a listening TCP socket and its accept queue, as ss -lnt shows
// it: connections the kernel has completed that the program has not yet
// accepted, against the backlog it asked for. A queue at its backlog drops
// or ignores new connections (the listen overflows of netstat).
type Listener struct {
	Addr        string `json:"addr"` // "0.0.0.0:8080", "[::]:443"
	AcceptQueue uint32 `json:"accept_queue"`
	Backlog     uint32 `json:"backlog"`
	PID         int    `json:"pid,omitempty"` // the process holding it, when found
	Comm        string `json:"comm,omitempty"`
	inode       uint32
}

// The sock_diag ABI (linux/inet_diag.h): a request is a netlink header and
// an inet_diag_req_v2 (family, protocol, ext, pad, states, then a 48-byte
// socket id left zero to match every socket); each answer an
// inet_diag_msg, of which these are the offsets read.
const (
	diagReqLen    = 56
	diagMsgLen    = 72
	diagSPort     = 4  // big-endian
	diagSrc       = 8  // 4 or 16 bytes of address
	diagRQueue    = 56 // a listener's accept queue
	diagWQueue    = 60 // a listener's backlog
	diagInode     = 68
	diagSrcLen    = 16
	nlMsgHdrLen   = unix.SizeofNlMsghdr
	diagFamilyOff = 0
)

const tcpListen = 10 // TCP_LISTEN in the kernel's state numbering

// TCPListeners lists this network namespace's listening TCP sockets through
// sock_diag (for a listener the kernel reports the accept queue as rqueue
// and the backlog as wqueue), with the process holding each one that has
// connections waiting, where /proc/*/fd shows it within budget.
func (h *Host) TCPListeners(budget time.Duration) ([]Listener, error) {
	var out []Listener
	for _, family := range []uint8{unix.AF_INET, unix.AF_INET6} {
		ls, err := diagListeners(family)
		if err != nil {
			return nil, err
		}
		out = append(out, ls...)
	}
	var busy []*Listener // only these are worth naming an owner for
	for i := range out {
		if out[i].AcceptQueue > 0 && out[i].inode != 0 {
			busy = append(busy, &out[i])
		}
	}
	h.socketOwners(busy, budget)
	return out, nil
}

func diagListeners(family uint8) ([]Listener, error) {
	fd, err := unix.Socket(unix.AF_NETLINK, unix.SOCK_RAW|unix.SOCK_CLOEXEC, unix.NETLINK_SOCK_DIAG)
	if err != nil {
		return nil, fmt.Errorf("sock_diag socket: %w", err)
	}
	defer unix.Close(fd)
	msg := make([]byte, nlMsgHdrLen+diagReqLen)
	ne := binary.NativeEndian
	ne.PutUint32(msg[0:], uint32(len(msg)))
	ne.PutUint16(msg[4:], unix.SOCK_DIAG_BY_FAMILY)
	ne.PutUint16(msg[6:], unix.NLM_F_REQUEST|unix.NLM_F_DUMP)
	ne.PutUint32(msg[8:], 1) // sequence number
	req := msg[nlMsgHdrLen:]
	req[0], req[1] = family, unix.IPPROTO_TCP
	ne.PutUint32(req[4:], 1<<tcpListen)
	if err := unix.Sendto(fd, msg, 0, &unix.SockaddrNetlink{Family: unix.AF_NETLINK}); err != nil {
		return nil, fmt.Errorf("sock_diag request: %w", err)
	}
	var out []Listener
	buf := make([]byte, 64<<10)
	for {
		n, _, err := unix.Recvfrom(fd, buf, 0)
		if err != nil {
			return nil, fmt.Errorf("sock_diag answer: %w", err)
		}
		msgs, err := syscall.ParseNetlinkMessage(buf[:n])
		if err != nil {
			return nil, fmt.Errorf("sock_diag answer: %w", err)
		}
		for _, m := range msgs {
			switch m.Header.Type {
			case unix.NLMSG_DONE:
				return out, nil
			case unix.NLMSG_ERROR:
				if len(m.Data) >= 4 {
					if e := int32(binary.NativeEndian.Uint32(m.Data)); e != 0 {
						return nil, fmt.Errorf("sock_diag: %w", unix.Errno(-e))
					}
				}
				return out, nil
			}
			if l, ok := parseDiagMsg(m.Data); ok {
				out = append(out, l)
			}
		}
	}
}

// parseDiagMsg reads one inet_diag_msg.
func parseDiagMsg(b []byte) (Listener, bool) {
	if len(b) < diagMsgLen {
		return Listener{}, false
	}
	var addr netip.Addr
	switch b[diagFamilyOff] {
	case unix.AF_INET:
		addr = netip.AddrFrom4([4]byte(b[diagSrc : diagSrc+4]))
	case unix.AF_INET6:
		addr = netip.AddrFrom16([16]byte(b[diagSrc : diagSrc+diagSrcLen]))
	default:
		return Listener{}, false
	}
	ne := binary.NativeEndian
	port := binary.BigEndian.Uint16(b[diagSPort:])
	return Listener{Addr: netip.AddrPortFrom(addr, port).String(), AcceptQueue: ne.Uint32(b[diagRQueue:]),
		Backlog: ne.Uint32(b[diagWQueue:]), inode: ne.Uint32(b[diagInode:])}, true
}

// socketOwners finds which process holds each listener, by the socket
// inode in /proc/*/fd links ("socket:[123]"), as ss -p does.
func (h *Host) socketOwners(ls []*Listener, budget time.Duration) {
	want := map[uint32]*Listener{}
	for _, l := range ls {
		want[l.inode] = l
	}
	if len(want) == 0 {
		return
	}
	h.eachFD(budget, func(pid int, _, target string) bool {
		if !strings.HasPrefix(target, "socket:[") {
			return true
		}
		ino, err := strconv.ParseUint(strings.TrimSuffix(strings.TrimPrefix(target, "socket:["), "]"), 10, 32)
		if l, ok := want[uint32(ino)]; err == nil && ok {
			l.PID, l.Comm = pid, h.comm(pid)
			delete(want, uint32(ino))
		}
		return len(want) > 0
	})
}
