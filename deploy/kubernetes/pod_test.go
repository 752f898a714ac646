package kubernetes

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// listening is hostmcp's log line once it serves HTTP.
var listening = regexp.MustCompile(`serving MCP over HTTP.*addr=(\S+)`)

// TestPodServes runs the real binary as the DaemonSet's container would:
// root holding only the container's capabilities, no new privileges, the
// container's arguments and environment, the ConfigMap's configuration and
// a token file of the Secret's mode. This machine is the host, so [host]
// names its /proc and /sys, as the DaemonSet's mounts give them; the pod's
// IP is 127.0.0.1, port 0 (8765 may be taken here). The readiness probe's
// /healthz answers without the token, /metrics answers with it only, only
// read-only tools are served, and a tool that needs each capability works
// with what the container holds.
func TestPodServes(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "setpriv")
	testutil.RequireBTF(t)
	m := load(t)
	cfg := loadConfig(t, m)
	c := container(t, m.DaemonSet)

	dir := t.TempDir()
	bin := filepath.Join(dir, "hostmcp")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/hostmcp/hostmcp/cmd/hostmcp")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building hostmcp: %v\n%s", err, out)
	}
	// The Secret as the kubelet mounts it: a link to a file of the
	// volume's mode in a hidden directory. The state an emptyDir: 0777.
	const token = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	secret := filepath.Join(dir, "secret")
	if err := os.MkdirAll(filepath.Join(secret, "..data"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(secret, "..data", "token"), []byte(token+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(secret, "..data", "token"), os.FileMode(*volume(t, m.DaemonSet, "token").Secret.DefaultMode)); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("..data/token", filepath.Join(secret, "token")); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state")
	if err := os.Mkdir(state, 0o777); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(state, 0o777); err != nil {
		t.Fatal(err)
	}
	file := renderConfig(t, m, map[string]string{
		cfg.Host.Proc:      "/proc",
		cfg.Host.Sys:       "/sys",
		cfg.StateDir:       state,
		cfg.HTTP.TokenFile: filepath.Join(secret, "token"),
	})
	env := containerEnv(t, c, "127.0.0.1")
	if host, _, err := net.SplitHostPort(env[config.EnvHTTPAddr]); err != nil || host != "127.0.0.1" {
		t.Fatalf("%s=%q is not the pod's IP and a port", config.EnvHTTPAddr, env[config.EnvHTTPAddr])
	}
	env[config.EnvHTTPAddr] = "127.0.0.1:0"
	run, err := config.Load(config.Flags{ConfigPath: file}, func(k string) string { return env[k] }, "/")
	if err != nil {
		t.Fatal(err)
	}
	root := run.Roots[0].Path

	// A file root may not read by its mode, and a process of another user.
	other := filepath.Join(root, "other.log")
	if err := os.WriteFile(other, []byte("another user's log\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(other, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	sleeper := exec.Command("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "sleep", "300")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sleeper.Process.Kill(); _ = sleeper.Wait() })

	args := slices.Clone(c.Args)
	i := slices.Index(args, configPath(t, m))
	if i < 0 {
		t.Fatalf("args %v do not name the ConfigMap's file", args)
	}
	args[i] = file
	bounding := "-all"
	for _, cp := range c.SecurityContext.Capabilities.Add {
		bounding += ",+" + strings.ToLower(string(cp))
	}
	cmd := exec.Command("setpriv", append([]string{"--bounding-set=" + bounding, "--inh-caps=-all", "--no-new-privs", bin}, args...)...)
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"} // the image's
	for k, v := range env {
		cmd.Env = append(cmd.Env, k+"="+v)
	}
	cmd.Dir = root
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	base := "http://" + startServer(t, cmd)

	probe := c.ReadinessProbe.HTTPGet.Path
	for _, tc := range []struct {
		path  string
		token string
		want  int
	}{{probe, "", http.StatusOK}, {"/metrics", "", http.StatusUnauthorized}, {"/metrics", token, http.StatusOK}} {
		req, _ := http.NewRequest(http.MethodGet, base+tc.path, nil)
		if tc.token != "" {
			req.Header.Set("Authorization", "Bearer "+tc.token)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("GET %s (token %v): %d, want %d", tc.path, tc.token != "", resp.StatusCode, tc.want)
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "kubernetes-test", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: base + "/mcp", HTTPClient: &http.Client{Transport: testutil.Bearer(token)}}, nil)
	if err != nil {
		t.Fatalf("connecting with the token: %v", err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var served []string
	for _, tl := range list.Tools {
		served = append(served, tl.Name)
		if tl.Annotations == nil || !tl.Annotations.ReadOnlyHint {
			t.Errorf("%s is served and not read-only", tl.Name)
		}
	}
	for _, name := range []string{"fs_read", "search_files", "proc_list", "sys_snapshot", "perf_use_check", "perf_runq_latency", "mcp_usage_stats"} {
		if !slices.Contains(served, name) {
			t.Errorf("%s is not served; the ConfigMap's toolsets have it", name)
		}
	}
	for _, name := range []string{"perf_cpu_profile", "bpftrace_exec_program", "proc_start", "proc_kill", "fs_write"} {
		if slices.Contains(served, name) {
			t.Errorf("%s is served; the ConfigMap leaves it out", name)
		}
	}

	for _, p := range []struct {
		tool string
		args map[string]any
		want string // in the envelope, when not empty
	}{
		{"fs_read", map[string]any{"path": "other.log"}, "another user's log"},                                                     // CAP_DAC_READ_SEARCH
		{"perf_fd_trace", map[string]any{"pid": sleeper.Process.Pid, "duration_seconds": 1, "include_fd_list": true}, "/dev/null"}, // CAP_SYS_PTRACE
		{"perf_runq_latency", map[string]any{"duration_seconds": 1}, ""},                                                           // CAP_BPF, CAP_PERFMON
		{"proc_list", map[string]any{}, ""},
		{"sys_snapshot", map[string]any{}, ""},
	} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: p.tool, Arguments: p.args})
		if err != nil {
			t.Errorf("%s: %v", p.tool, err)
			continue
		}
		b, _ := json.Marshal(res.StructuredContent)
		if res.IsError || !strings.Contains(string(b), p.want) {
			t.Errorf("%s with the container's capabilities: %s", p.tool, b)
		}
	}
}

// startServer starts hostmcp, stops it at the end of the test, and returns
// the address it listens on.
func startServer(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	logs, done := make(chan string, 100), make(chan struct{})
	go func() {
		defer close(done)
		defer close(logs)
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			t.Logf("pod: %s", sc.Text())
			select {
			case logs <- sc.Text():
			default: // nobody reads once it listens
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM) // the process this test started
		_ = cmd.Wait()
		<-done // no logging once the test is over
	})
	timeout := time.After(time.Minute)
	for {
		select {
		case l, ok := <-logs:
			if !ok {
				t.Fatal("hostmcp exited before listening")
			}
			if m := listening.FindStringSubmatch(l); m != nil {
				return m[1]
			}
		case <-timeout:
			t.Fatal("hostmcp did not listen within a minute")
		}
	}
}
