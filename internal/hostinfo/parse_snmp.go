package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// parseSNMP parses /proc/net/snmp and /proc/net/netstat, where each protocol
// has a header line of names followed by a line of values, "Tcp: ActiveOpens
// ..." then "Tcp: 190 ...". Keys are named as nstat(8) names them: protocol
// and counter joined, "TcpRetransSegs", "TcpExtListenOverflows". Values are
// signed: Tcp MaxConn is -1.
func parseSNMP(b []byte) (map[string]int64, error) {
	out := map[string]int64{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i+1 < len(lines); i += 2 {
		if strings.TrimSpace(lines[i]) == "" {
			i-- // skip a blank line and stay in step
			continue
		}
		p1, names, ok1 := strings.Cut(lines[i], ":")
		p2, values, ok2 := strings.Cut(lines[i+1], ":")
		if !ok1 || !ok2 || p1 != p2 {
			return nil, fmt.Errorf("parsing snmp lines %d-%d: want a header and a value line of one protocol", i+1, i+2)
		}
		nf, vf := strings.Fields(names), strings.Fields(values)
		if len(nf) != len(vf) {
			return nil, fmt.Errorf("parsing snmp %s: %d names but %d values", p1, len(nf), len(vf))
		}
		for j, name := range nf {
			v, err := strconv.ParseInt(vf[j], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("parsing snmp %s%s: %w", p1, name, err)
			}
			out[p1+name] = v
		}
	}
	return out, nil
}

// parseSockstat parses /proc/net/sockstat and sockstat6, "TCP: inuse 1 orphan
// 0 tw 0 alloc 1 mem 0", into keys such as "TCP.inuse" and "sockets.used":
// what ss -s summarises.
func parseSockstat(b []byte) (map[string]int64, error) {
	out := map[string]int64{}
	for n, line := range strings.Split(string(b), "\n") {
		proto, rest, ok := strings.Cut(line, ":")
		if !ok {
			if strings.TrimSpace(line) != "" {
				return nil, fmt.Errorf("parsing sockstat line %d %q: no protocol", n+1, line)
			}
			continue
		}
		f := strings.Fields(rest)
		if len(f)%2 != 0 {
			return nil, fmt.Errorf("parsing sockstat line %d %q: want name value pairs", n+1, line)
		}
		for i := 0; i < len(f); i += 2 {
			v, err := strconv.ParseInt(f[i+1], 10, 64)
			if err != nil {
				return nil, fmt.Errorf("parsing sockstat %s %s: %w", proto, f[i], err)
			}
			out[proto+"."+f[i]] = v
		}
	}
	return out, nil
}

// PSILine is one line of a pressure file: the share of wall time (percent)
// in which some (or all, for "full") non-idle tasks were stalled on the
// resource, averaged over 10, 60 and 300 s, and the total stall time in µs.
type PSILine struct {
	Avg10   float64 `json:"avg10"`
	Avg60   float64 `json:"avg60"`
	Avg300  float64 `json:"avg300"`
	TotalUS uint64  `json:"total_us"`
}

// PSIStats are the two lines of /proc/pressure/<resource> or a cgroup's
// <resource>.pressure. Full is absent for the CPU on kernels before 5.13.
type PSIStats struct {
	Some PSILine  `json:"some"`
	Full *PSILine `json:"full,omitempty"`
}

// parsePSI parses a pressure file (Documentation/accounting/psi.rst).
func parsePSI(b []byte) (PSIStats, error) {
	var st PSIStats
	seenSome := false
	for n, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		var l PSILine
		for _, kv := range f[1:] {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				return PSIStats{}, fmt.Errorf("parsing pressure line %d: %q is not key=value", n+1, kv)
			}
			var err error
			switch k {
			case "avg10":
				l.Avg10, err = parsePercent(v)
			case "avg60":
				l.Avg60, err = parsePercent(v)
			case "avg300":
				l.Avg300, err = parsePercent(v)
			case "total":
				l.TotalUS, err = strconv.ParseUint(v, 10, 64)
			}
			if err != nil {
				return PSIStats{}, fmt.Errorf("parsing pressure line %d %s: %w", n+1, k, err)
			}
		}
		switch f[0] {
		case "some":
			st.Some, seenSome = l, true
		case "full":
			st.Full = &l
		default:
			return PSIStats{}, fmt.Errorf("parsing pressure line %d: %q is neither some nor full", n+1, f[0])
		}
	}
	if !seenSome {
		return PSIStats{}, fmt.Errorf("parsing pressure: no \"some\" line")
	}
	return st, nil
}

func parsePercent(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || v < 0 || v > 100 || v != v {
		return 0, fmt.Errorf("%q is not a percentage", s)
	}
	return v, nil
}
