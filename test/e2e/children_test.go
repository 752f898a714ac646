package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/procs"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// vdsoScratch is the one file perf writes outside its working directory
// whatever it is told: a copy of the vDSO at a name hard-coded in perf
// (tools/perf/util/vdso.c), which it removes when it exits.
var vdsoScratch = regexp.MustCompile(`^/tmp/perf-vdso\.so-\w{6}( \(deleted\))?$`)

// A CPU profile and an off-CPU one through the built binary, as root,
// write nothing outside the state directory and the roots. Every file the server or anything
// under it closed after writing, anywhere on the machine, is checked, so
// what other tests on the machine write meanwhile does not count, and no
// place is missed: perf's build-id cache (which used to fill /.debug with
// copies of every sampled binary and of /proc/kallsyms), its data file,
// anything a child writes into its HOME.
func TestProfileWritesOnlyInsideTheStateDirectory(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	testutil.ExclusiveLoad(t)
	ctx := testCtx(t)
	e := newEnv(t, "")
	writes := testutil.RecordWrites(t)
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 5 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	server := cmd.Process.Pid
	under := watchDescendants(t, server)
	tools := listTools(t, ctx, cs)
	for _, name := range []string{"perf_cpu_profile", "perf_offcpu_profile"} { // perf record; eBPF (perf sched record without it)
		env, _ := call(t, ctx, cs, tools, name, map[string]any{"duration_seconds": 2})
		mustData(t, env, &struct{}{})
	}
	cs.Close() // the server exits, which ends its writes to the database
	seen, overflowed := writes.Stop()
	if overflowed {
		t.Fatal("the kernel dropped file events: the check is incomplete")
	}
	children := under()

	allowed := []string{realPath(t, e.stateDir), realPath(t, e.root)}
	var byChildren int
	for _, w := range seen {
		if w.PID != server && !children[w.PID] && !slices.Contains(w.Ancestors, server) {
			continue // another process on the machine
		}
		if w.PID != server {
			byChildren++
		}
		switch {
		case strings.Contains(w.Path, "/.debug/"):
			t.Errorf("pid %d wrote a build-id cache: %s", w.PID, w.Path)
		case slices.ContainsFunc(allowed, func(dir string) bool { return strings.HasPrefix(w.Path, dir+"/") }):
		case vdsoScratch.MatchString(w.Path):
			if _, err := os.Stat(strings.TrimSuffix(w.Path, " (deleted)")); err == nil {
				t.Errorf("perf left its vDSO copy %s", w.Path)
			}
		default:
			t.Errorf("pid %d wrote %s, outside the state directory and the roots %v", w.PID, w.Path, allowed)
		}
	}
	if byChildren == 0 {
		t.Fatalf("no write by perf was seen (%d events in all): the check would pass whatever perf did", len(seen))
	}
	t.Logf("%d files written on the machine meanwhile, %d of them by the server's children", len(seen), byChildren)
	home := filepath.Join(e.stateDir, "home")
	fi, err := os.Stat(home)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("the children's HOME %s: %v, %v; want a directory of mode 0700", home, fi, err)
	}
}

// realPath resolves dir's symlinks, as the kernel names files.
func realPath(t *testing.T, dir string) string {
	t.Helper()
	p, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// watchDescendants notes every process under pid, every few milliseconds,
// until the returned function is called; it returns what it saw. Short-lived
// children may still slip between two looks: callers also check ancestry
// where they can.
func watchDescendants(t *testing.T, pid int) func() map[int]bool {
	t.Helper()
	var mu sync.Mutex
	seen := map[int]bool{}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			for _, d := range descendants(pid) {
				mu.Lock()
				seen[d] = true
				mu.Unlock()
			}
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
		}
	}()
	var once sync.Once
	end := func() map[int]bool {
		once.Do(func() { close(stop); <-done })
		mu.Lock()
		defer mu.Unlock()
		return seen
	}
	t.Cleanup(func() { end() })
	return end
}

// Over streamable HTTP a profile stops, perf with it, within a second of
// the client's notifications/cancelled, which arrives on a POST of its own
// (each is a session of its own in stateless mode), or of the client going
// away; a cancellation from another client, or for another request id,
// stops nothing.
func TestHTTPCancellationStopsTheProfiler(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	testutil.ExclusiveLoad(t)
	for _, version := range []string{"2025-06-18", "2026-07-28"} {
		t.Run("notification/"+version, func(t *testing.T) {
			s := newEnv(t, "").startHTTP(t, testToken, "127.0.0.1:0")
			answer := postCall(t, context.Background(), s.base, version, `41`, "perf_cpu_profile", `{"duration_seconds":30}`)
			started := waitForProgram(t, s.cmd.Process.Pid, "perf")

			cancel := func(id string, header map[string]string) {
				t.Helper()
				body, h := rpcMessage(version, "", "notifications/cancelled", "", `"requestId":`+id+`,"reason":"test"`)
				for k, v := range header {
					h[k] = v
				}
				if code := post(t, s.base+"/mcp", body, h); code != http.StatusAccepted {
					t.Fatalf("notifications/cancelled: HTTP %d", code)
				}
			}
			// Not from another client, and not for another request.
			cancel(`41`, map[string]string{"Mcp-Session-Id": "someone-else"})
			cancel(`"41"`, nil)
			cancel(`42`, nil)
			time.Sleep(time.Second)
			for _, k := range started {
				if !running(k) {
					t.Fatalf("pid %d ended after a cancellation that was not its call's", k.PID)
				}
			}

			cancel(`41`, nil)
			checkGone(t, started, time.Second)
			select {
			case body := <-answer:
				if !strings.Contains(body, "CANCELLED") {
					t.Errorf("the cancelled call answered %.500s", body)
				}
			case <-time.After(10 * time.Second):
				t.Error("the cancelled call never answered")
			}
		})
		t.Run("disconnect/"+version, func(t *testing.T) {
			s := newEnv(t, "").startHTTP(t, testToken, "127.0.0.1:0")
			ctx, hangUp := context.WithCancel(context.Background())
			defer hangUp()
			postCall(t, ctx, s.base, version, `"call-7"`, "perf_cpu_profile", `{"duration_seconds":30}`)
			started := waitForProgram(t, s.cmd.Process.Pid, "perf")
			hangUp()
			checkGone(t, started, time.Second)
		})
	}
}

// When the server is SIGKILLed in the middle of a profile, nothing it
// started outlives it: perf gets the parent-death signal, and so does its
// workload, which used to be `sleep` and lived on for the rest of the
// profile's duration.
func TestKilledServerLeavesNoProfiler(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireBinary(t, "perf")
	testutil.ExclusiveLoad(t)
	s := newEnv(t, "").startHTTP(t, testToken, "127.0.0.1:0")
	postCall(t, context.Background(), s.base, "2025-06-18", `1`, "perf_cpu_profile", `{"duration_seconds":30}`)
	// perf and the workload it forks and runs once it is ready to record.
	// Until then perf's child dies with perf anyway, reading the end of
	// the pipe it waits on: only a running workload tells.
	var started []int
	workloadRuns := func() bool {
		started = descendants(s.cmd.Process.Pid)
		return slices.ContainsFunc(started, func(pid int) bool {
			comm := commOf(pid)
			return comm != "" && comm != "perf" && comm != "perf-exec"
		})
	}
	for deadline := time.Now().Add(20 * time.Second); !workloadRuns(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("perf runs no workload: %v", started)
		}
	}
	keys := identify(t, started)
	for _, pid := range started {
		t.Logf("under the server: %d %s", pid, commOf(pid))
	}
	if err := s.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	checkGone(t, keys, time.Second)
}

// postCall sends a tools/call as a plain streamable HTTP client would, in
// the background, and returns the channel its response body arrives on.
// Cancelling ctx hangs up.
func postCall(t *testing.T, ctx context.Context, base, version, id, name, args string) <-chan string {
	t.Helper()
	body, header := rpcMessage(version, id, "tools/call", name, `"name":`+strconv.Quote(name)+`,"arguments":`+args)
	req, err := http.NewRequestWithContext(ctx, "POST", base+"/mcp", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	answer := make(chan string, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			answer <- err.Error()
			return
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		answer <- fmt.Sprintf("HTTP %d: %s", resp.StatusCode, b)
	}()
	return answer
}

// rpcMessage is a JSON-RPC message (a notification when id is empty) with
// params (the inside of the object), and the HTTP headers that go with it,
// as the protocol version wants them: from 2026-07-28 on, the version in
// _meta and the method and tool name as headers too.
func rpcMessage(version, id, method, toolName, params string) (string, map[string]string) {
	header := map[string]string{"Authorization": "Bearer " + testToken, "Mcp-Protocol-Version": version}
	if version >= "2026-07-28" {
		params += `,"_meta":{"io.modelcontextprotocol/protocolVersion":"` + version + `","io.modelcontextprotocol/clientInfo":{"name":"e2e","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
		header["Mcp-Method"] = method
		if toolName != "" {
			header["Mcp-Name"] = toolName
		}
	}
	idField := ""
	if id != "" {
		idField = `"id":` + id + `,`
	}
	return `{"jsonrpc":"2.0",` + idField + `"method":"` + method + `","params":{` + params + `}}`, header
}

// waitForProgram waits until a process named comm runs under pid, and
// returns every process under pid then.
func waitForProgram(t *testing.T, pid int, comm string) []procs.Key {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		under := descendants(pid)
		if slices.ContainsFunc(under, func(d int) bool { return commOf(d) == comm }) {
			return identify(t, under)
		}
	}
	t.Fatalf("no %s under pid %d after 20 s", comm, pid)
	return nil
}

// identify pins pids to the processes that have them now, so that a pid
// reused later is not taken for one of them.
func identify(t *testing.T, pids []int) []procs.Key {
	t.Helper()
	r, err := procs.New("/proc", 0)
	if err != nil {
		t.Fatal(err)
	}
	var keys []procs.Key
	for _, pid := range pids {
		if start, err := r.StartTicks(pid); err == nil {
			keys = append(keys, procs.Key{PID: pid, StartTicks: start})
		}
	}
	return keys
}

// running reports whether the process k names still runs (not a zombie).
func running(k procs.Key) bool {
	r, err := procs.New("/proc", 0)
	if err != nil {
		return false
	}
	start, err := r.StartTicks(k.PID)
	return err == nil && start == k.StartTicks && alive(k.PID)
}

// checkGone fails unless every process has ended within limit, and kills
// those that have not (descendants of a server this test started).
func checkGone(t *testing.T, started []procs.Key, limit time.Duration) {
	t.Helper()
	start := time.Now()
	for _, k := range started {
		for running(k) && time.Since(start) < 10*time.Second {
			time.Sleep(5 * time.Millisecond)
		}
	}
	if took := time.Since(start); took > limit {
		var names []string
		for _, k := range started {
			names = append(names, fmt.Sprintf("%d %s", k.PID, commOf(k.PID)))
		}
		t.Errorf("%v took %v to end, want at most %v", names, took.Round(time.Millisecond), limit)
	}
	for _, k := range started {
		if running(k) {
			t.Errorf("pid %d (%s) still runs", k.PID, commOf(k.PID))
			_ = syscall.Kill(k.PID, syscall.SIGKILL)
		}
	}
}

// commOf is a process's name, or "" once it is gone.
func commOf(pid int) string {
	b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
	return strings.TrimSpace(string(b))
}
