package hostinfo

import (
	"bufio"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// capsHost is a host tree with the files capabilities are read from: the
// process's status (uids, gids and capability sets), perf_event_paranoid,
// bpffs, BTF and a tracefs mount.
type capsHost struct {
	status   string
	paranoid string // "" leaves the file out: a kernel without perf events
	bpf, btf bool
}

func (c capsHost) build(t *testing.T) *Host {
	t.Helper()
	dir := t.TempDir()
	write := func(rel, content string) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("proc/self/status", c.status)
	write("proc/self/mountinfo", "42 23 0:13 / /sys/kernel/tracing rw,relatime - tracefs nodev rw\n")
	write("sys/kernel/tracing/events/header_page", "")
	if c.paranoid != "" {
		write("proc/sys/kernel/perf_event_paranoid", c.paranoid+"\n")
	}
	if c.bpf {
		write("sys/fs/bpf/.keep", "")
	}
	if c.btf {
		write("sys/kernel/btf/vmlinux", "")
	}
	return New(Roots{Proc: filepath.Join(dir, "proc"), Sys: filepath.Join(dir, "sys"), RootFS: dir})
}

// status is a /proc/PID/status with the lines capabilities reads.
func status(uid, gid string, inh, prm, eff, bnd, amb string, noNewPrivs bool) string {
	nnp := "0"
	if noNewPrivs {
		nnp = "1"
	}
	return "Name:\thostmcp\nUid:\t" + uid + "\t" + uid + "\t" + uid + "\t" + uid + "\nGid:\t" + gid + "\t" + gid + "\t" + gid + "\t" + gid +
		"\nCapInh:\t" + inh + "\nCapPrm:\t" + prm + "\nCapEff:\t" + eff + "\nCapBnd:\t" + bnd + "\nCapAmb:\t" + amb + "\nNoNewPrivs:\t" + nnp + "\n"
}

const (
	noCaps      = "0000000000000000"
	allCapsMask = "000001ffffffffff"
	bpfOnly     = "0000008000000000" // CAP_BPF (39)
	perfmonOnly = "0000004000000000" // CAP_PERFMON (38)
	bpfPerfmon  = "000000c000000000"
	sysAdmin    = "0000000000200000" // CAP_SYS_ADMIN (21)
)

// What perf_info says perf and eBPF may do follows the kernel's own rules:
// perf runs as a program of hostmcp's, with the capabilities an exec gives
// it (root's bounding set, or an ordinary user's ambient set: none of the
// server's own), and eBPF tracing programs need CAP_BPF with CAP_PERFMON,
// or CAP_SYS_ADMIN.
func TestCapabilitiesPermitted(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name          string
		host          capsHost
		perfPermitted bool
		bpfAvailable  bool
	}{
		{"root with every capability", capsHost{status: status("0", "0", noCaps, allCapsMask, allCapsMask, allCapsMask, noCaps, false), paranoid: "2", bpf: true, btf: true}, true, true},
		{"user at paranoid 2", capsHost{status: status("65534", "65534", noCaps, noCaps, noCaps, allCapsMask, noCaps, false), paranoid: "2", bpf: true}, false, false},
		{"user at paranoid 1", capsHost{status: status("65534", "65534", noCaps, noCaps, noCaps, allCapsMask, noCaps, false), paranoid: "1", bpf: true}, true, false},
		// File capabilities on the binary: the server holds CAP_PERFMON, perf does not.
		{"user whose binary has CAP_PERFMON", capsHost{status: status("1000", "1000", noCaps, perfmonOnly, perfmonOnly, allCapsMask, noCaps, false), paranoid: "2", bpf: true}, false, false},
		// Ambient capabilities (systemd AmbientCapabilities=) pass to perf.
		{"user with ambient CAP_PERFMON", capsHost{status: status("1000", "1000", perfmonOnly, perfmonOnly, perfmonOnly, allCapsMask, perfmonOnly, false), paranoid: "2", bpf: true}, true, false},
		{"user with CAP_BPF alone", capsHost{status: status("1000", "1000", noCaps, bpfOnly, bpfOnly, allCapsMask, noCaps, false), paranoid: "2", bpf: true}, false, false},
		{"user with CAP_BPF and CAP_PERFMON", capsHost{status: status("1000", "1000", noCaps, bpfPerfmon, bpfPerfmon, allCapsMask, noCaps, false), paranoid: "2", bpf: true}, false, true},
		{"user with CAP_SYS_ADMIN", capsHost{status: status("1000", "1000", noCaps, sysAdmin, sysAdmin, allCapsMask, noCaps, false), paranoid: "2", bpf: true}, false, true},
		// Root whose bounding set lacks them: its programs get none either.
		{"root in a container without them", capsHost{status: status("0", "0", noCaps, "00000000a80425fb", "00000000a80425fb", "00000000a80425fb", noCaps, false), paranoid: "2", bpf: true}, false, false},
		{"no perf events in the kernel", capsHost{status: status("0", "0", noCaps, allCapsMask, allCapsMask, allCapsMask, noCaps, false), bpf: true}, false, true},
		{"no bpf in the kernel", capsHost{status: status("0", "0", noCaps, allCapsMask, allCapsMask, allCapsMask, noCaps, false), paranoid: "2"}, true, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			info, err := tc.host.build(t).Info(t.Context(), nil)
			if err != nil {
				t.Fatal(err)
			}
			c := info.Capabilities
			if c.PerfPermitted != tc.perfPermitted || c.BPFAvailable != tc.bpfAvailable {
				t.Errorf("perf_permitted %v, bpf_available %v; want %v, %v (%+v)", c.PerfPermitted, c.BPFAvailable, tc.perfPermitted, tc.bpfAvailable, c)
			}
		})
	}
}

// The sets perf_info names: the programs' set follows exec's rules, and
// tracefs counts as readable only when its events can be listed.
func TestCapabilitiesSets(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		host        capsHost
		noEvents    bool
		wantProgram []string
		wantUID     int
		wantTracefs bool
	}{
		{"root", capsHost{status: status("0", "0", noCaps, allCapsMask, allCapsMask, "000000c000200000", noCaps, false), paranoid: "2"}, false,
			[]string{"CAP_SYS_ADMIN", "CAP_PERFMON", "CAP_BPF"}, 0, true},
		// no_new_privs: an exec gains nothing beyond the permitted set.
		{"root under no_new_privs", capsHost{status: status("0", "0", noCaps, perfmonOnly, perfmonOnly, allCapsMask, noCaps, true), paranoid: "2"}, false,
			[]string{"CAP_PERFMON"}, 0, true},
		{"user with ambient CAP_PERFMON", capsHost{status: status("1000", "100", perfmonOnly, perfmonOnly, perfmonOnly, allCapsMask, perfmonOnly, false), paranoid: "2"}, false,
			[]string{"CAP_PERFMON"}, 1000, true},
		{"tracefs without events", capsHost{status: status("1000", "100", noCaps, noCaps, noCaps, allCapsMask, noCaps, false), paranoid: "2"}, true,
			[]string{}, 1000, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			h := tc.host.build(t)
			if tc.noEvents {
				if err := os.RemoveAll(filepath.Join(h.Roots().Sys, "kernel", "tracing", "events")); err != nil {
					t.Fatal(err)
				}
			}
			c, warns := h.Capabilities(nil)
			if len(warns) > 0 {
				t.Errorf("warnings: %q", warns)
			}
			if diff := cmp.Diff(c.ProgramCaps, tc.wantProgram); diff != "" {
				t.Errorf("program caps (-got +want):\n%s", diff)
			}
			if c.UID != tc.wantUID || c.TracefsReadable != tc.wantTracefs || !c.TracefsMounted || c.TracefsPath != "/sys/kernel/tracing" {
				t.Errorf("uid %d, tracefs %q mounted %v readable %v; want uid %d, readable %v", c.UID, c.TracefsPath, c.TracefsMounted, c.TracefsReadable, tc.wantUID, tc.wantTracefs)
			}
		})
	}
}

// ProcessCreds reads live processes: this one, one of another user's,
// and one that made itself non-dumpable, whose /proc/PID turns root's.
func TestProcessCredsLive(t *testing.T) {
	h := New(Roots{})
	got, err := h.ProcessCreds(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if want := (ProcessCreds{UIDs: [3]int{os.Getuid(), os.Geteuid(), os.Geteuid()}, GIDs: [3]int{os.Getgid(), os.Getegid(), os.Getegid()}, Dumpable: true}); got != want {
		t.Errorf("own creds %+v, want %+v", got, want)
	}
	if _, err := h.ProcessCreds(1 << 30); !errors.Is(err, ErrPIDNotFound) {
		t.Errorf("a pid that cannot exist: %v", err)
	}
	testutil.RequireRoot(t)
	const python3 = "/usr/bin/python3"
	testutil.RequireFile(t, python3)
	const nobody = 65534
	script := "import ctypes, sys, time\nif sys.argv[1] == '0': ctypes.CDLL(None).prctl(4, 0, 0, 0, 0)\nprint('ready', flush=True)\ntime.sleep(60)\n"
	for _, dumpable := range []bool{true, false} {
		arg := "1"
		if !dumpable {
			arg = "0"
		}
		cmd := exec.Command(python3, "-c", script, arg)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }) // ours, by pid
		if _, err := bufio.NewReader(out).ReadString('\n'); err != nil {
			t.Fatalf("the child did not start: %v", err)
		}
		got, err := h.ProcessCreds(cmd.Process.Pid)
		if err != nil {
			t.Fatal(err)
		}
		want := ProcessCreds{UIDs: [3]int{nobody, nobody, nobody}, GIDs: [3]int{nobody, nobody, nobody}, Dumpable: dumpable}
		if got != want {
			t.Errorf("creds of nobody's python3 (dumpable %v): %+v, want %+v", dumpable, got, want)
		}
	}
}
