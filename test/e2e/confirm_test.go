package e2e

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// person answers the questions the server asks through the client, as a
// person at Claude Code or VS Code would, and keeps each message.
type person struct {
	mu       sync.Mutex
	asked    []string
	answer   string
	onAsking func(n int) // runs before the answer, with the question's number
}

func (p *person) handle(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
	p.mu.Lock()
	p.asked = append(p.asked, req.Params.Message)
	n, on := len(p.asked), p.onAsking
	p.mu.Unlock()
	if on != nil {
		on(n)
	}
	return &mcp.ElicitResult{Action: p.answer}, nil
}

func (p *person) questions() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string{}, p.asked...)
}

// connectAsking connects over stdio at rev, with p at the client when p is
// not nil (the client then declares elicitation), without one otherwise.
func (e *env) connectAsking(t *testing.T, ctx context.Context, rev string, p *person) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	return connectWith(t, ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, rev, p)
}

func connectWith(t *testing.T, ctx context.Context, tr mcp.Transport, rev string, p *person) *mcp.ClientSession {
	t.Helper()
	var opts *mcp.ClientOptions
	if p != nil {
		opts = &mcp.ClientOptions{ElicitationHandler: p.handle}
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-confirm", Version: "1"}, opts)
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: rev})
	if err != nil {
		t.Fatalf("connecting at %s: %v", rev, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// cacheTree makes root/cache with three files of 10, 20 and 30 bytes.
func cacheTree(t *testing.T, root string) string {
	t.Helper()
	dir := filepath.Join(root, "cache")
	for i, name := range []string{"a", "sub/b", "sub/c"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", 10*(i+1))), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// treeSum is every name, mode, size, time and content under dir, or
// "gone".
func treeSum(t *testing.T, dir string) string {
	t.Helper()
	if _, err := os.Lstat(dir); os.IsNotExist(err) {
		return "gone"
	}
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := de.Info()
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%s %v %d %d\n", p, info.Mode(), info.Size(), info.ModTime().UnixNano())
		if de.Type().IsRegular() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", h.Sum(nil))
}

// confirmations is what mcp_recent_calls says came of each call of name,
// newest first.
func confirmations(t *testing.T, ctx context.Context, cs *mcp.ClientSession, name string) []string {
	t.Helper()
	var rec struct {
		Calls []struct {
			Confirmation string `json:"confirmation"`
		} `json:"calls"`
	}
	mustEnvelope(t, ctx, cs, listTools(t, ctx, cs), "mcp_recent_calls", map[string]any{"tool": name}, &rec)
	var out []string
	for _, c := range rec.Calls {
		out = append(out, c.Confirmation)
	}
	return out
}

// A recursive delete (the default [confirm]) asks the person at the
// client, over elicitation/create on 2025-11-25 and input-required on
// 2026-07-28: a decline answers DECLINED and the tree is untouched, an
// accept deletes it; a client without elicitation gets
// CONFIRMATION_REQUIRED and the tree stays. The record says which.
func TestConfirmRecursiveDelete(t *testing.T) {
	t.Parallel()
	for _, rev := range []string{"2025-11-25", "2026-07-28"} {
		t.Run(rev, func(t *testing.T) {
			ctx := testCtx(t)
			e := newEnv(t, "")
			dir := cacheTree(t, e.root)
			before := treeSum(t, dir)
			args := map[string]any{"path": "cache", "recursive": true}

			unable := e.connectAsking(t, ctx, rev, nil)
			env, _ := call(t, ctx, unable, listTools(t, ctx, unable), "fs_delete", args)
			if env.Success || env.Error.Code != "CONFIRMATION_REQUIRED" || env.Error.Suggestion == "" || treeSum(t, dir) != before {
				t.Fatalf("without elicitation: %+v", env.Error)
			}

			no := &person{answer: "decline"}
			cs := e.connectAsking(t, ctx, rev, no)
			tools := listTools(t, ctx, cs)
			env, _ = call(t, ctx, cs, tools, "fs_delete", args)
			q := no.questions()
			if env.Success || env.Error.Code != "DECLINED" || len(q) != 1 || treeSum(t, dir) != before {
				t.Fatalf("declined: %+v, asked %q", env.Error, q)
			}
			want := fmt.Sprintf("Delete %q and everything in it: 3 files, 1 directory, 60 B, newest changed ", dir)
			if !strings.HasPrefix(q[0], want) {
				t.Errorf("the question %q, want it to begin %q", q[0], want)
			}

			yes := &person{answer: "accept"}
			cs = e.connectAsking(t, ctx, rev, yes)
			env, _ = call(t, ctx, cs, listTools(t, ctx, cs), "fs_delete", args)
			if !env.Success || len(yes.questions()) != 1 || treeSum(t, dir) != "gone" {
				t.Fatalf("accepted: %+v, asked %q, tree %s", env.Error, yes.questions(), treeSum(t, dir))
			}
			got := strings.Join(confirmations(t, ctx, cs, "fs_delete"), ",")
			wantRec := "confirmed,declined,refused"
			if rev == "2026-07-28" {
				// The first answer is the question going back to the client.
				wantRec = "confirmed,asked,declined,asked,refused"
			}
			if got != wantRec {
				t.Errorf("mcp_recent_calls confirmations %q, want %q", got, wantRec)
			}
		})
	}
}

// A file written into the tree while the person reads the question makes
// the server ask again, with the new figures; the first yes does not
// cover what it did not show.
func TestConfirmAsksAgainWhenTheTreeChanged(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "")
	dir := cacheTree(t, e.root)
	p := &person{answer: "accept", onAsking: func(n int) {
		if n == 1 {
			if err := os.WriteFile(filepath.Join(dir, "late"), []byte("late"), 0o644); err != nil {
				t.Error(err)
			}
		}
	}}
	cs := e.connectAsking(t, ctx, "2025-11-25", p)
	env, _ := call(t, ctx, cs, listTools(t, ctx, cs), "fs_delete", map[string]any{"path": "cache", "recursive": true})
	q := p.questions()
	if !env.Success || len(q) != 2 || treeSum(t, dir) != "gone" {
		t.Fatalf("%+v, asked %q", env.Error, q)
	}
	if !strings.Contains(q[0], "3 files") || !strings.HasPrefix(q[1], "This changed since you were asked. ") || !strings.Contains(q[1], "4 files") {
		t.Errorf("questions %q", q)
	}
}

// Dry runs ask nothing and change nothing: the tree is byte-identical,
// the process alive; each says what the call would do and that it would
// ask.
func TestConfirmDryRunsChangeNothing(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "")
	dir := cacheTree(t, e.root)
	before := treeSum(t, dir)
	sleeper := exec.Command("sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sleeper.Process.Kill(); sleeper.Wait() }) // the process this test started, by pid
	p := &person{answer: "accept"}
	cs := e.connectAsking(t, ctx, "2025-11-25", p)
	tools := listTools(t, ctx, cs)
	var del struct {
		Plan struct {
			Summary           string `json:"summary"`
			NeedsConfirmation bool   `json:"needs_confirmation"`
		} `json:"plan"`
	}
	mustEnvelope(t, ctx, cs, tools, "fs_delete", map[string]any{"path": "cache", "recursive": true, "dry_run": true}, &del)
	if !del.Plan.NeedsConfirmation || !strings.Contains(del.Plan.Summary, "3 files") {
		t.Errorf("fs_delete dry run: %+v", del)
	}
	var kill struct {
		User      string `json:"user"`
		StartTime string `json:"start_time"`
		Plan      struct {
			Summary           string `json:"summary"`
			NeedsConfirmation bool   `json:"needs_confirmation"`
		} `json:"plan"`
	}
	mustEnvelope(t, ctx, cs, tools, "proc_kill", map[string]any{"pid": sleeper.Process.Pid, "signal": "KILL", "dry_run": true}, &kill)
	if !kill.Plan.NeedsConfirmation || kill.StartTime == "" || !strings.HasPrefix(kill.Plan.Summary, fmt.Sprintf("Send SIGKILL to pid %d sleep (%s, running ", sleeper.Process.Pid, kill.User)) {
		t.Errorf("proc_kill dry run: %+v", kill)
	}
	var write struct {
		Diff string `json:"diff"`
	}
	mustEnvelope(t, ctx, cs, tools, "fs_write", map[string]any{"path": "cache/a", "content": "new\n", "dry_run": true}, &write)
	if !strings.Contains(write.Diff, "+new\n") {
		t.Errorf("fs_write dry run diff %q", write.Diff)
	}
	if len(p.questions()) != 0 || treeSum(t, dir) != before {
		t.Fatalf("a dry run asked %q or changed the tree", p.questions())
	}
	if err := sleeper.Process.Signal(syscall.Signal(0)); err != nil {
		t.Fatalf("the process is gone after a dry run: %v", err)
	}
	if got := strings.Join(confirmations(t, ctx, cs, "proc_kill"), ","); got != "dry_run" {
		t.Errorf("proc_kill recorded %q, want dry_run", got)
	}
}

// Over HTTP a client on a revision before 2026-07-28 cannot be asked
// while a call waits (stateless, no server-to-client requests): the
// call is refused, by default; on 2026-07-28 it is asked with an
// input-required result.
func TestConfirmOverHTTP(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "")
	dir := cacheTree(t, e.root)
	before := treeSum(t, dir)
	s := e.startHTTP(t, testToken, "127.0.0.1:0")
	connect := func(rev string, p *person) *mcp.ClientSession {
		return connectWith(t, ctx, &mcp.StreamableClientTransport{
			Endpoint:   s.base + "/mcp",
			HTTPClient: &http.Client{Transport: bearerTransport{testToken}},
		}, rev, p)
	}
	args := map[string]any{"path": "cache", "recursive": true}
	old := &person{answer: "accept"}
	cs := connect("2025-11-25", old)
	env, _ := call(t, ctx, cs, listTools(t, ctx, cs), "fs_delete", args)
	if env.Success || env.Error.Code != "CONFIRMATION_REQUIRED" || len(old.questions()) != 0 || treeSum(t, dir) != before {
		t.Fatalf("2025-11-25 over HTTP: %+v, asked %q", env.Error, old.questions())
	}
	p := &person{answer: "accept"}
	cs = connect("2026-07-28", p)
	env, _ = call(t, ctx, cs, listTools(t, ctx, cs), "fs_delete", args)
	if !env.Success || len(p.questions()) != 1 || treeSum(t, dir) != "gone" {
		t.Fatalf("2026-07-28 over HTTP: %+v, asked %q", env.Error, p.questions())
	}
}

// An operator adds a tool to [confirm]: organize_downloads with apply asks
// first, its dry run says it would ask, and a decline moves nothing; a
// flow that moves nothing is not asked about.
func TestConfirmOperatorRule(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "[confirm]\ntools.mcp_run_onboarding = [\"moves>0\"]\n")
	dl := filepath.Join(e.root, "Downloads")
	for _, name := range []string{"a.pdf", "b.png"} {
		if err := os.MkdirAll(dl, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dl, name), []byte(name), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	before := treeSum(t, dl)
	p := &person{answer: "decline"}
	cs := e.connectAsking(t, ctx, "2025-11-25", p)
	tools := listTools(t, ctx, cs)
	var dry struct {
		Plan struct {
			Summary           string `json:"summary"`
			NeedsConfirmation bool   `json:"needs_confirmation"`
		} `json:"plan"`
	}
	mustEnvelope(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "organize_downloads", "path": "Downloads"}, &dry)
	want := fmt.Sprintf("Move 2 files at the top of %q into category folders beside them (Documents 1, Images 1), replacing none", dl)
	if !dry.Plan.NeedsConfirmation || dry.Plan.Summary != want {
		t.Errorf("dry run plan %+v, want %q", dry.Plan, want)
	}
	env, _ := call(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "organize_downloads", "path": "Downloads", "apply": true})
	if env.Success || env.Error.Code != "DECLINED" || len(p.questions()) != 1 || !strings.HasPrefix(p.questions()[0], want) || treeSum(t, dl) != before {
		t.Fatalf("declined: %+v, asked %q", env.Error, p.questions())
	}
	env, _ = call(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "explain_repo"})
	if len(p.questions()) != 1 {
		t.Errorf("a flow that moves nothing was asked about: %q (%+v)", p.questions(), env.Error)
	}
}
