package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// fleetPort is the port every namespaced instance listens on, each on its
// own address.
const fleetPort = 8080

// netnsPrefix names the network namespaces these tests make, followed by
// the test process's pid, so that a run can tell its leftovers from
// another's.
const netnsPrefix = "hmfleet-"

// fleetNet is a private /16 of this test's: one network namespace per
// instance, joined to the root namespace by a veth pair on a /24 of its
// own (10.S.i.1 on the root side, 10.S.i.2 inside), so that a process in
// the root namespace (Prometheus, the fleet hostmcp) reaches each instance
// at its own address and nothing else is reached.
type fleetNet struct {
	subnet int // S of 10.S.0.0/16
	n      int
}

// newFleetNet picks a /16 no route of this machine covers and deletes,
// when the test ends, every namespace and link it makes.
func newFleetNet(t *testing.T) *fleetNet {
	t.Helper()
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "ip")
	testutil.RequireBinary(t, "unshare")
	removeStaleNamespaces(t)
	routes := ipOut(t, "-4", "route", "show", "table", "all")
	for k := range 100 {
		subnet := 100 + (os.Getpid()+k)%100
		if !strings.Contains(routes, fmt.Sprintf("10.%d.", subnet)) {
			return &fleetNet{subnet: subnet}
		}
	}
	t.Fatal("no free 10.x.0.0/16 for the fleet's namespaces")
	return nil
}

// netnsHost is one instance's network namespace and its address there.
type netnsHost struct {
	ns, addr string
}

// add makes the next namespace with its veth pair, addresses and routes.
func (f *fleetNet) add(t *testing.T) netnsHost {
	t.Helper()
	i := f.n
	f.n++
	pid := os.Getpid()
	ns := fmt.Sprintf("%s%d-%d", netnsPrefix, pid, i)
	outer, inner := fmt.Sprintf("hmf%dh%d", pid, i), fmt.Sprintf("hmf%dn%d", pid, i)
	ip(t, "netns", "add", ns)
	t.Cleanup(func() {
		// Deleting the namespace deletes the inner end, and with it the
		// pair; the outer link is deleted besides, should it remain.
		ipQuiet("netns", "del", ns)
		ipQuiet("link", "del", outer)
	})
	ip(t, "link", "add", outer, "type", "veth", "peer", "name", inner, "netns", ns)
	ip(t, "addr", "add", fmt.Sprintf("10.%d.%d.1/24", f.subnet, i), "dev", outer)
	ip(t, "link", "set", outer, "up")
	ip(t, "-n", ns, "addr", "add", fmt.Sprintf("10.%d.%d.2/24", f.subnet, i), "dev", inner)
	ip(t, "-n", ns, "link", "set", inner, "up")
	ip(t, "-n", ns, "link", "set", "lo", "up")
	return netnsHost{ns: ns, addr: fmt.Sprintf("10.%d.%d.2:%d", f.subnet, i, fleetPort)}
}

// startIn runs `hostmcp serve --http` inside the namespace, in a UTS
// namespace of its own whose hostname is hostname: `ip netns exec` enters
// the network namespace, unshare makes the UTS namespace, and a shell sets
// the hostname before it becomes hostmcp (each execs the next, so the pid
// started is hostmcp's, which the cleanup kills).
func (h netnsHost) startIn(t *testing.T, e *env, token, hostname string) *httpServer {
	t.Helper()
	const setHostname = `echo "$0" > /proc/sys/kernel/hostname && exec "$@"`
	args := append([]string{"netns", "exec", h.ns, "unshare", "--uts", "--", "/bin/sh", "-c", setHostname, hostname, binary},
		e.args("serve", "--http", h.addr)...)
	cmd := exec.Command("ip", args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return startHTTPCmd(t, token, cmd)
}

// removeStaleNamespaces deletes the namespaces an earlier run of these
// tests left when it died before its cleanup (its pid no longer exists).
// It touches no namespace of a live process.
func removeStaleNamespaces(t *testing.T) {
	t.Helper()
	for _, line := range strings.Split(ipOut(t, "netns", "list"), "\n") {
		name, _, _ := strings.Cut(strings.TrimSpace(line), " ")
		rest, ok := strings.CutPrefix(name, netnsPrefix)
		if !ok {
			continue
		}
		pidText, _, _ := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if err != nil || pid == os.Getpid() {
			continue
		}
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", pid)); err == nil {
			continue
		}
		ipQuiet("netns", "del", name)
	}
}

func ip(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
		t.Fatalf("ip %s: %v\n%s", strings.Join(args, " "), err, out)
	}
}

func ipOut(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("ip", args...).Output()
	if err != nil {
		t.Fatalf("ip %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// ipQuiet runs a cleanup step whose failure (already gone) is no error.
func ipQuiet(args ...string) { _ = exec.Command("ip", args...).Run() }
