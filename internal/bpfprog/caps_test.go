package bpfprog

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// Loading tracing programs is a matter of capabilities, not of uid: root
// whose capabilities were dropped (a container's) is refused, and an
// ordinary user holding CAP_SYS_ADMIN is not, as the kernel decides. The
// test binary is re-run under setpriv with those credentials.
func TestPreflightJudgesCapabilities(t *testing.T) {
	testutil.RequireRoot(t)
	requireEBPF(t)
	setpriv := testutil.RequireBinary(t, "setpriv")
	bin := copyForAnyone(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"root without capabilities", []string{"--bounding-set=-all", "--inh-caps=-all"}, "refused: loading eBPF programs needs CAP_BPF and CAP_PERFMON, or CAP_SYS_ADMIN"},
		{"a user with CAP_SYS_ADMIN", []string{"--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+sys_admin", "--ambient-caps=+sys_admin"}, "allowed"},
		{"a user with CAP_BPF alone", []string{"--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+bpf", "--ambient-caps=+bpf"}, "refused:"},
	}
	for _, tc := range tests {
		cmd := exec.Command(setpriv, append(tc.args, "--", bin, "-test.run=^$")...)
		cmd.Env = append(os.Environ(), ebpfWorkloadEnv+"=preflight")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), tc.want) {
			t.Errorf("%s: %q (%v), want %q", tc.name, out, err, tc.want)
		}
	}
}

// copyForAnyone copies the test binary where every user may run it.
func copyForAnyone(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "hostmcp-ebpf-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	bin := filepath.Join(dir, "ebpf.test")
	dst, err := os.OpenFile(bin, os.O_WRONLY|os.O_CREATE, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
	return bin
}
