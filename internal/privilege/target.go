package privilege

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// target judges whether a call may look into process pid as the kernel
// will (ptrace(2), "Ptrace access mode checking"): the process must be
// dumpable and run with the server's real uid and gid as its real,
// effective and saved ids, unless the one looking holds CAP_SYS_PTRACE (or,
// for perf, CAP_PERFMON: perf_check_permission). A process that cannot be
// read (gone) passes: the tool answers PID_NOT_FOUND itself.
func (p *Preflight) target(c hostinfo.Capabilities, r Rule, pid int) *Missing {
	has, who := c.HasEffective, "hostmcp runs"
	bypass := []string{"CAP_SYS_PTRACE"}
	if r.Program != "" {
		has, who = c.ProgramsHave, "hostmcp's programs run"
	}
	if r.Program == "perf" {
		bypass = append(bypass, "CAP_PERFMON", "CAP_SYS_ADMIN")
	}
	for _, b := range bypass {
		if has(b) {
			return nil
		}
	}
	creds, err := p.host.ProcessCreds(pid)
	if err != nil {
		return nil
	}
	same := true
	for i := range creds.UIDs {
		same = same && creds.UIDs[i] == c.UID && creds.GIDs[i] == c.GID
	}
	if same && creds.Dumpable {
		return nil
	}
	m := &Missing{
		What:  fmt.Sprintf("looking into pid %d", pid),
		Takes: "a process of hostmcp's own user, or CAP_SYS_PTRACE",
		Found: fmt.Sprintf("pid %d runs as uid %d gid %d, and %s as uid %d gid %d without %s", pid, creds.UIDs[1], creds.GIDs[1], who, c.UID, c.GID, strings.Join(bypass, " or ")),
		Fix:   fmt.Sprintf("run hostmcp as root, or as the process's user (uid %d)", creds.UIDs[1]),
	}
	if same {
		m.Found = fmt.Sprintf("pid %d is not dumpable (it made itself so, or it changed ids), and %s without %s", pid, who, strings.Join(bypass, " or "))
		m.Fix = "run hostmcp as root"
	}
	return m
}
