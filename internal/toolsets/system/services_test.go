package system

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	sdbus "github.com/coreos/go-systemd/v22/dbus"
	"github.com/godbus/dbus/v5"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// fakeManager answers org.freedesktop.systemd1.Manager.ListUnitsByPatterns
// on a private bus the way systemd does, filtering by state and glob, so
// the test goes through go-systemd's real D-Bus encoding.
type fakeManager struct{ units []fakeUnit }

// fakeUnit is the a(ssssssouso) struct systemd returns.
type fakeUnit struct {
	Name, Description, LoadState, ActiveState, SubState, Followed string
	Path                                                          dbus.ObjectPath
	JobID                                                         uint32
	JobType                                                       string
	JobPath                                                       dbus.ObjectPath
}

func (m *fakeManager) ListUnitsByPatterns(states, patterns []string) ([]fakeUnit, *dbus.Error) {
	out := []fakeUnit{}
	for _, u := range m.units {
		stateOK := len(states) == 0
		for _, s := range states {
			stateOK = stateOK || s == u.ActiveState || s == u.SubState
		}
		nameOK := len(patterns) == 0
		for _, p := range patterns {
			ok, _ := filepath.Match(p, u.Name)
			nameOK = nameOK || ok
		}
		if stateOK && nameOK {
			u.JobPath = "/" // no job, as systemd says it
			out = append(out, u)
		}
	}
	return out, nil
}

// privateBus starts a dbus-daemon of its own, hosting a fake systemd, and
// returns a dialer for sys_services. The daemon is killed by pid at the end.
func privateBus(t *testing.T, units []fakeUnit) busDialer {
	t.Helper()
	testutil.RequireBinary(t, "dbus-daemon")
	sock := filepath.Join(t.TempDir(), "bus")
	cmd := exec.Command("dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address", "--address=unix:path="+sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	addr, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("dbus-daemon printed no address: %v", err)
	}
	addr = strings.TrimSpace(addr)
	connect := func() (*dbus.Conn, error) {
		c, err := dbus.Dial(addr)
		if err != nil {
			return nil, err
		}
		if err := c.Auth(nil); err != nil {
			c.Close()
			return nil, err
		}
		if err := c.Hello(); err != nil {
			c.Close()
			return nil, err
		}
		return c, nil
	}
	host, err := connect()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { host.Close() })
	if err := host.Export(&fakeManager{units: units}, "/org/freedesktop/systemd1", "org.freedesktop.systemd1.Manager"); err != nil {
		t.Fatal(err)
	}
	if reply, err := host.RequestName("org.freedesktop.systemd1", dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("owning the systemd name: %v %v", reply, err)
	}
	return func(ctx context.Context) (unitLister, error) {
		c, err := sdbus.NewConnection(connect)
		if err != nil {
			return nil, err
		}
		return &systemdBus{conn: c}, nil
	}
}

func callServices(t *testing.T, s *Set, args string) (servicesOut, *tool.Error) {
	t.Helper()
	return tooltest.Run[servicesOut](t, context.Background(), s.services(), "test", json.RawMessage(args))
}

func TestServicesThroughFakeSystemd(t *testing.T) {
	s := New(&Deps{})
	s.systemdDir = t.TempDir() // "systemd is the service manager"
	s.dial = privateBus(t, []fakeUnit{
		{Name: "nginx.service", Description: "web", LoadState: "loaded", ActiveState: "active", SubState: "running", Path: "/u/nginx"},
		{Name: "cron.service", Description: "cron", LoadState: "loaded", ActiveState: "active", SubState: "running", Path: "/u/cron"},
		{Name: "backup.service", Description: "backup", LoadState: "loaded", ActiveState: "failed", SubState: "failed", Path: "/u/backup"},
		{Name: "logrotate.timer", Description: "timer", LoadState: "loaded", ActiveState: "active", SubState: "waiting", Path: "/u/lr"},
	})
	out, terr := callServices(t, s, `{}`)
	if terr != nil {
		t.Fatal(terr)
	}
	if out.Total != 2 || out.Units[0].Name != "cron.service" || out.Units[1].Name != "nginx.service" || out.Units[1].SubState != "running" {
		t.Fatalf("running services: %+v", out)
	}
	out, _ = callServices(t, s, `{"state":"failed"}`)
	if out.Total != 1 || out.Units[0].Name != "backup.service" || out.Units[0].ActiveState != "failed" {
		t.Fatalf("failed services: %+v", out)
	}
	out, _ = callServices(t, s, `{"state":"all","pattern":"*","max_results":3}`)
	if out.Total != 4 || len(out.Units) != 3 || !out.Truncated {
		t.Fatalf("all units, bounded: %+v", out)
	}
	if _, terr := callServices(t, s, `{"pattern":"../x"}`); terr == nil || terr.Code != tool.InvalidArgument {
		t.Fatalf("a pattern with '/' was accepted: %v", terr)
	}
}

// Without systemd (as on these machines) the answer says so at once, with
// a suggestion, instead of waiting on a bus nobody answers.
func TestServicesWithoutSystemd(t *testing.T) {
	s := New(&Deps{})
	s.systemdDir = filepath.Join(t.TempDir(), "absent")
	s.dial = func(context.Context) (unitLister, error) { t.Fatal("dialled the bus without systemd"); return nil, nil }
	_, terr := callServices(t, s, `{}`)
	if terr == nil || terr.Code != tool.CapabilityMissing || terr.Suggestion == "" {
		t.Fatalf("want CAPABILITY_MISSING with a suggestion, got %+v", terr)
	}
}

// Where systemd does run, the real system bus answers.
func TestServicesLive(t *testing.T) {
	if fi, err := os.Stat("/run/systemd/system"); err != nil || !fi.IsDir() {
		t.Skip("systemd is not the service manager here")
	}
	out, terr := callServices(t, New(&Deps{}), `{"state":"all","pattern":"*"}`)
	if terr != nil || out.Total == 0 {
		t.Fatalf("live units: %+v %v", out, terr)
	}
}
