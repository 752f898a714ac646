package hostinfo

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// OOMKill is one OOM kill as the kernel logged it: who was killed, in which
// memory cgroup, and whose limit ran out.
type OOMKill struct {
	PID  int    `json:"pid"`
	Comm string `json:"comm"`
	// Cgroup is the victim's memory cgroup (task_memcg); LimitCgroup the
	// cgroup whose limit was hit (oom_memcg), for a cgroup's OOM.
	Cgroup      string `json:"cgroup"`
	LimitCgroup string `json:"limit_cgroup,omitempty"`
	// Constraint is CONSTRAINT_MEMCG when a cgroup's limit ran out,
	// CONSTRAINT_NONE when the whole host did.
	Constraint   string  `json:"constraint"`
	AnonRSSBytes uint64  `json:"anon_rss_bytes,omitempty" jsonschema:"the victim's anonymous memory when it was killed"`
	AtSeconds    float64 `json:"at_seconds" jsonschema:"when, in seconds since boot (the kernel log's clock)"`
}

// maxKmsgBytes bounds what is read of the kernel log: its ring buffer is
// usually 128 KiB to a few MiB.
const maxKmsgBytes = 8 << 20

// oomSlack widens the interval an OOM kill is looked for in: the kernel
// logs the kill a moment before it counts it.
const oomSlack = 50 * time.Millisecond

// LoggedOOMKills reads the OOM kills the kernel logged between readings a
// and b from /dev/kmsg (root, or CAP_SYSLOG where dmesg_restrict is set).
// Only the kernel's "oom-kill:" and "Killed process" records are parsed and
// only these fields come out: no other log line leaves this function.
func (h *Host) LoggedOOMKills(a, b Counters) ([]OOMKill, error) {
	raw, err := readKmsg(h.rootPath("dev", "kmsg"))
	if err != nil {
		return nil, fmt.Errorf("reading the kernel log for OOM kills: %w", err)
	}
	from, to := (a.mono - oomSlack).Microseconds(), (b.mono + oomSlack).Microseconds()
	var out []OOMKill
	for _, k := range parseKmsgOOM(raw) {
		if at := int64(k.AtSeconds * 1e6); at >= from && at <= to {
			out = append(out, k)
		}
	}
	return out, nil
}

// readKmsg reads the kernel log's records: /dev/kmsg returns one record per
// read and EAGAIN at the end (Documentation/ABI/testing/dev-kmsg); EPIPE
// means a record was overwritten while reading, and reading goes on. A
// fixture's plain file reads to EOF.
func readKmsg(path string) ([]byte, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fd := int(f.Fd())
	var out []byte
	buf := make([]byte, 16<<10)
	for len(out) < maxKmsgBytes {
		n, err := unix.Read(fd, buf)
		switch {
		case errors.Is(err, unix.EAGAIN):
			return out, nil
		case errors.Is(err, unix.EPIPE) || errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return nil, err
		case n == 0:
			return out, nil
		}
		out = append(out, buf[:n]...)
	}
	return out, nil
}

// parseKmsgOOM finds the OOM kills in kernel log records ("prio,seq,usec,
// flags;message", continuation lines starting with a space), joining each
// "oom-kill:constraint=...,task_memcg=...,task=...,pid=..." summary with
// the "Killed process PID (comm) ... anon-rss:NkB" line that follows it.
func parseKmsgOOM(b []byte) []OOMKill {
	var out []OOMKill
	for _, line := range strings.Split(string(b), "\n") {
		head, msg, ok := strings.Cut(line, ";")
		if !ok || strings.HasPrefix(line, " ") {
			continue
		}
		f := strings.Split(head, ",")
		if len(f) < 3 {
			continue
		}
		usec, err := strconv.ParseUint(f[2], 10, 64)
		if err != nil {
			continue
		}
		switch {
		case strings.HasPrefix(msg, "oom-kill:"):
			if k, ok := parseOOMSummary(strings.TrimPrefix(msg, "oom-kill:")); ok {
				k.AtSeconds = float64(usec) / 1e6
				out = append(out, k)
			}
		case strings.Contains(msg, "Killed process "):
			pid, rss, ok := parseKilledProcess(msg)
			for i := len(out) - 1; ok && i >= 0; i-- {
				if out[i].PID == pid {
					out[i].AnonRSSBytes = rss
					break
				}
			}
		}
	}
	return out
}

// parseOOMSummary parses the key=value list of an oom-kill record. The
// task's name may hold commas, so it runs to the last ",pid=".
func parseOOMSummary(s string) (OOMKill, bool) {
	var k OOMKill
	head, rest, ok := strings.Cut(s, ",task=")
	if !ok {
		return k, false
	}
	i := strings.LastIndex(rest, ",pid=")
	if i < 0 {
		return k, false
	}
	k.Comm = rest[:i]
	for _, kv := range append(strings.Split(head, ","), strings.Split(rest[i+1:], ",")...) {
		key, v, _ := strings.Cut(kv, "=")
		switch key {
		case "constraint":
			k.Constraint = v
		case "oom_memcg":
			k.LimitCgroup = v
		case "task_memcg":
			k.Cgroup = v
		case "pid":
			pid, err := strconv.Atoi(v)
			if err != nil || pid < 1 {
				return k, false
			}
			k.PID = pid
		}
	}
	if k.Constraint != "CONSTRAINT_MEMCG" {
		k.LimitCgroup = ""
	}
	return k, k.PID > 0
}

// parseKilledProcess parses "...Killed process 123 (name) total-vm:...kB,
// anon-rss:456kB, ..." into the pid and the anonymous memory in bytes.
func parseKilledProcess(msg string) (pid int, anonRSS uint64, ok bool) {
	_, rest, _ := strings.Cut(msg, "Killed process ")
	field, rest, found := strings.Cut(rest, " ")
	pid, err := strconv.Atoi(field)
	if !found || err != nil {
		return 0, 0, false
	}
	if _, v, found := strings.Cut(rest, "anon-rss:"); found {
		kb, _, _ := strings.Cut(v, "kB")
		if n, err := strconv.ParseUint(kb, 10, 64); err == nil {
			anonRSS = n << 10
		}
	}
	return pid, anonRSS, true
}
