package hostinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// procStatus is what we need of /proc/<pid>/status: who the process is and
// what it may do, as the kernel's permission checks (ptrace access, perf
// events, capabilities across exec) see it.
type procStatus struct {
	UID, EUID, SUID int // real, effective and saved user ids ("Uid:")
	GID, EGID, SGID int // the same for groups ("Gid:"), zero when absent

	// Capability sets; CapEff is required, the others are zero when absent.
	CapInh, CapPrm, CapEff, CapBnd, CapAmb uint64
	NoNewPrivs                             bool
}

// parseStatus parses the id, capability and NoNewPrivs lines of
// /proc/<pid>/status (proc_pid_status(5)). "Uid:" and "CapEff:" are
// required: without them we cannot say what the process may do.
func parseStatus(b []byte) (procStatus, error) {
	var st procStatus
	var seenUID, seenCap bool
	caps := map[string]*uint64{"CapInh": &st.CapInh, "CapPrm": &st.CapPrm, "CapEff": &st.CapEff, "CapBnd": &st.CapBnd, "CapAmb": &st.CapAmb}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		key, val, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		val = strings.TrimSpace(val)
		switch key {
		case "Uid", "Gid":
			ids, err := parseIDs(key, val)
			if err != nil {
				return procStatus{}, err
			}
			if key == "Uid" {
				st.UID, st.EUID, st.SUID, seenUID = ids[0], ids[1], ids[2], true
			} else {
				st.GID, st.EGID, st.SGID = ids[0], ids[1], ids[2]
			}
		case "NoNewPrivs":
			st.NoNewPrivs = val == "1"
		default:
			dst, ok := caps[key]
			if !ok {
				continue
			}
			c, err := parseCapHex(val)
			if err != nil {
				return procStatus{}, err
			}
			*dst = c
			seenCap = seenCap || key == "CapEff"
		}
	}
	if err := sc.Err(); err != nil {
		return procStatus{}, fmt.Errorf("scanning status: %w", err)
	}
	if !seenUID || !seenCap {
		return procStatus{}, fmt.Errorf("parsing status: Uid or CapEff line missing")
	}
	return st, nil
}

// parseIDs reads the real, effective and saved ids of a "Uid:" or "Gid:"
// line (the fourth, the file system id, is not needed). A line with only
// the first two takes the effective id as the saved one.
func parseIDs(key, val string) ([3]int, error) {
	f := strings.Fields(val)
	if len(f) < 2 {
		return [3]int{}, fmt.Errorf("parsing status %s %q: want real and effective ids", key, val)
	}
	if len(f) == 2 {
		f = append(f, f[1])
	}
	var ids [3]int
	for i := range ids {
		id, err := strconv.ParseUint(f[i], 10, 32)
		if err != nil {
			return [3]int{}, fmt.Errorf("parsing status %s: %w", key, err)
		}
		ids[i] = int(id)
	}
	return ids, nil
}

// parseCapHex parses a capability mask as the kernel prints it: 16 hex digits.
func parseCapHex(s string) (uint64, error) {
	c, err := strconv.ParseUint(strings.TrimSpace(s), 16, 64)
	if err != nil {
		return 0, fmt.Errorf("parsing capability mask %q: %w", s, err)
	}
	return c, nil
}

// Capability bit numbers we reason about, from include/uapi/linux/capability.h.
const (
	capSysAdmin = 21
	capPerfmon  = 38
	capBPF      = 39
)

// capabilityNames are indexed by bit number, from include/uapi/linux/capability.h
// up to CAP_CHECKPOINT_RESTORE (Linux 5.9), the last one defined as of Linux 6.x.
var capabilityNames = [...]string{
	"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_DAC_READ_SEARCH", "CAP_FOWNER",
	"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP",
	"CAP_LINUX_IMMUTABLE", "CAP_NET_BIND_SERVICE", "CAP_NET_BROADCAST",
	"CAP_NET_ADMIN", "CAP_NET_RAW", "CAP_IPC_LOCK", "CAP_IPC_OWNER",
	"CAP_SYS_MODULE", "CAP_SYS_RAWIO", "CAP_SYS_CHROOT", "CAP_SYS_PTRACE",
	"CAP_SYS_PACCT", "CAP_SYS_ADMIN", "CAP_SYS_BOOT", "CAP_SYS_NICE",
	"CAP_SYS_RESOURCE", "CAP_SYS_TIME", "CAP_SYS_TTY_CONFIG", "CAP_MKNOD",
	"CAP_LEASE", "CAP_AUDIT_WRITE", "CAP_AUDIT_CONTROL", "CAP_SETFCAP",
	"CAP_MAC_OVERRIDE", "CAP_MAC_ADMIN", "CAP_SYSLOG", "CAP_WAKE_ALARM",
	"CAP_BLOCK_SUSPEND", "CAP_AUDIT_READ", "CAP_PERFMON", "CAP_BPF",
	"CAP_CHECKPOINT_RESTORE",
}

// capNames lists the capabilities set in mask in bit order. A bit newer than
// this table is named "CAP_<n>" so that it is not silently dropped.
func capNames(mask uint64) []string {
	names := make([]string, 0, bits.OnesCount64(mask))
	for bit := 0; bit < 64; bit++ {
		if mask&(1<<bit) == 0 {
			continue
		}
		if bit < len(capabilityNames) {
			names = append(names, capabilityNames[bit])
		} else {
			names = append(names, "CAP_"+strconv.Itoa(bit))
		}
	}
	return names
}

func hasCap(mask uint64, bit int) bool { return mask&(1<<bit) != 0 }
