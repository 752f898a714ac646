package diagnose

import (
	"context"
	"errors"
	"os"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/health"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// netIn is the input of perf_net_health (spec 000 section 9.7).
type netIn struct {
	Interface         string `json:"interface,omitempty" jsonschema:"default all"`
	IncludeTCPDetails *bool  `json:"include_tcp_details,omitempty" jsonschema:"TCP and listen-queue detail" default:"true"`
	IntervalMS        int    `json:"interval_ms,omitempty" default:"1000"`
	PID               int    `json:"pid,omitempty" jsonschema:"this process's network namespace"`
}

func (s *Set) netHealth() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "perf_net_health",
		Kind:        tool.ReadOnly,
		Title:       "Network health",
		Description: "Interface errors and drops, TCP retransmits, full listen queues and their processes, sockets.",
		Timeout:     15 * time.Second,
	}, s.handleNet).WithRange("interval_ms", minIntervalMS, maxIntervalMS).WithRange("pid", 1, 1<<22)
}

func (s *Set) handleNet(ctx context.Context, call *tool.Call, in netIn) (health.NetCheck, error) {
	var opts *hostinfo.CounterOptions
	if in.PID != 0 {
		dir := s.deps.Host.Roots().Proc + "/" + strconv.Itoa(in.PID) + "/net"
		if _, err := os.Stat(dir); err != nil {
			return health.NetCheck{}, tool.Errorf(tool.PIDNotFound, "no process with pid %d", in.PID)
		}
		opts = &hostinfo.CounterOptions{NetDir: dir}
	}
	sm, err := s.sample(ctx, call, interval(in.IntervalMS), opts)
	if err != nil {
		return health.NetCheck{}, err
	}
	withTCP := in.IncludeTCPDetails == nil || *in.IncludeTCPDetails
	if withTCP {
		sm.gauges.Listeners = s.listeners(call, in.PID)
	}
	nh, err := hostinfo.BuildNetHealth(sm.before, sm.after, sm.gauges, in.Interface, withTCP)
	if errors.Is(err, hostinfo.ErrNoInterface) { // its message quotes interface
		return health.NetCheck{}, tool.Errorf(tool.DeviceNotFound, "%s", tool.Clip(err.Error())).
			WithSuggestion("Leave interface out to see every interface, or use a name perf_snapshot lists under network.interfaces.")
	}
	if err != nil {
		return health.NetCheck{}, err
	}
	return health.NetCheck{NetHealth: nh, Summary: health.AnalyzeNet(&nh)}, nil
}

// listeners reads the accept queues of hostmcp's own network namespace:
// sock_diag answers for the namespace of the socket that asks. For a pid in
// another namespace they are left out, and the answer says so.
func (s *Set) listeners(call *tool.Call, pid int) []hostinfo.Listener {
	if pid != 0 {
		proc := s.deps.Host.Roots().Proc
		own, err1 := os.Stat(proc + "/self/ns/net")
		theirs, err2 := os.Stat(proc + "/" + strconv.Itoa(pid) + "/ns/net")
		if err1 != nil || err2 != nil || !os.SameFile(own, theirs) {
			call.Warn("listen_queues left out: pid %d is in another network namespace", pid)
			return nil
		}
	}
	ls, err := s.deps.Host.TCPListeners(listenerOwnersBudget)
	if err != nil {
		call.Warn("listen_queues unknown: %v", err)
	}
	return ls
}

// listenerOwnersBudget bounds the look through /proc/*/fd for who holds
// each listener.
const listenerOwnersBudget = 300 * time.Millisecond
