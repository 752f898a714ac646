package proc

import (
	"strings"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// matcher holds proc_list's filters in two parts: early ones need only
// what every read has, so a process they drop never has its command line
// read; late ones need the command line.
type matcher struct {
	uid     int
	byUID   bool
	name    string
	command string
	pids    map[int]bool
}

func (s *Set) matcher(in *listIn) (*matcher, error) {
	m := &matcher{name: strings.ToLower(in.Name), command: strings.ToLower(in.Command)}
	if in.User != "" {
		uid, ok := s.users.UID(in.User)
		if !ok {
			return nil, tool.Errorf(tool.InvalidArgument, "user %q: no such user on this host", tool.Clip(in.User)).
				WithSuggestion("Pass a user name from /etc/passwd or a numeric uid, or leave user out.")
		}
		if uid != s.uid && !s.deps.Config.ListOtherUsers {
			return nil, tool.Errorf(tool.PermissionDenied, "user %q: only this server's user's processes may be listed here", tool.Clip(in.User)).
				WithSuggestion("Leave user out; the operator can set list_other_users = true in [process] to list other users' processes.")
		}
		m.uid, m.byUID = uid, true
	}
	if len(in.PIDs) > maxPIDFilter {
		return nil, tool.Errorf(tool.InvalidArgument, "pids: %d given; at most %d", len(in.PIDs), maxPIDFilter)
	}
	if len(in.PIDs) > 0 {
		m.pids = make(map[int]bool, len(in.PIDs))
		for _, pid := range in.PIDs {
			if pid <= 0 {
				return nil, tool.Errorf(tool.InvalidPID, "pids: %d is not a process id; pids are positive", pid)
			}
			m.pids[pid] = true
		}
	}
	return m, nil
}

func (m *matcher) early(p *procs.Process) bool {
	if m.byUID && p.EUID != m.uid {
		return false
	}
	if m.pids != nil && !m.pids[p.PID] {
		return false
	}
	return m.name == "" || lowerContains(p.Comm, m.name)
}

func (m *matcher) late(p *procs.Process) bool {
	return m.command == "" || lowerContains(p.Cmdline, m.command)
}
