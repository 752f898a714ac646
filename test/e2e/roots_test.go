//lint:file-ignore SA1019 MCP roots are deprecated by SEP-2577 but still served by clients

package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// With client_roots = "narrow", a client's MCP roots narrow what the file
// tools reach, never widen it, and a change of roots is seen on the next
// call.
func TestClientRootsNarrow(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, `client_roots = "narrow"`)
	for _, d := range []string{"proj/src", "other"} {
		if err := os.MkdirAll(filepath.Join(e.root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, body := range map[string]string{"proj/src/main.go": "package main\n", "other/notes.txt": "other\n", "top.txt": "top\n"} {
		if err := os.WriteFile(filepath.Join(e.root, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-roots", Version: "1"}, nil)
	proj := filepath.Join(e.root, "proj")
	client.AddRoots(&mcp.Root{URI: "file://" + proj, Name: "proj"}, &mcp.Root{URI: "file://" + outside, Name: "outside"})
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	// Roots are asked for on the 2025 revisions that clients speak today;
	// from 2026-07-28 the protocol deprecates them.
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tools := listTools(t, ctx, cs)

	read := func(path string) envelope {
		env, _ := call(t, ctx, cs, tools, "fs_read", map[string]any{"path": path})
		return env
	}
	// Inside the client's root: readable, and relative paths start there.
	if env := read("src/main.go"); !env.Success {
		t.Fatalf("relative to the client's root: %+v", env.Error)
	}
	if env := read(filepath.Join(proj, "src/main.go")); !env.Success {
		t.Fatalf("absolute inside the client's root: %+v", env.Error)
	}
	// Inside the server's root but outside the client's: refused.
	for _, p := range []string{filepath.Join(e.root, "top.txt"), "../other/notes.txt"} {
		if env := read(p); env.Success || env.Error.Code != "INVALID_PATH" {
			t.Fatalf("%s outside the client's roots was readable: %+v", p, env)
		}
	}
	// The client's root outside the server's roots widens nothing.
	if env := read(filepath.Join(outside, "secret.txt")); env.Success || strings.Contains(string(env.Data), "secret") {
		t.Fatalf("a client root widened the server's: %+v", env)
	}
	// search_content follows the same narrowing.
	env, _ := call(t, ctx, cs, tools, "search_content", map[string]any{"pattern": "other|package"})
	if !env.Success || strings.Contains(string(env.Data), "notes.txt") || !strings.Contains(string(env.Data), "main.go") {
		t.Fatalf("search under the client's roots: %+v %s", env.Error, env.Data)
	}

	// The client changes its roots: the next call sees the new set.
	client.RemoveRoots("file://" + proj)
	client.AddRoots(&mcp.Root{URI: "file://" + filepath.Join(e.root, "other"), Name: "other"})
	deadline := time.Now().Add(10 * time.Second)
	for !read("notes.txt").Success {
		if time.Now().After(deadline) {
			t.Fatal("the new client root was never used")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if env := read(filepath.Join(proj, "src/main.go")); env.Success {
		t.Fatal("a removed client root still reachable")
	}

	// Only roots outside the server's: nothing is reachable, with a clear error.
	client.RemoveRoots("file://" + filepath.Join(e.root, "other"))
	deadline = time.Now().Add(10 * time.Second)
	for {
		env := read(filepath.Join(e.root, "top.txt"))
		if !env.Success && strings.Contains(env.Error.Message, "client's roots") && strings.Contains(env.Error.Message, `client_roots = "narrow"`) && strings.Contains(env.Error.Suggestion, `client_roots = "ignore"`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("want a refusal naming the client's roots, got %+v", env)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// By default a client's roots change nothing: Claude Code lists the
// directory it was started in, which may lie outside the server's roots,
// and the file tools must still reach the server's roots (and only them).
func TestClientRootsIgnoredByDefault(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "")
	if err := os.WriteFile(filepath.Join(e.root, "top.txt"), []byte("top\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	elsewhere := t.TempDir()
	if err := os.WriteFile(filepath.Join(elsewhere, "secret.txt"), []byte("secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "like-claude-code", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + elsewhere, Name: "cwd"})
	cmd := exec.Command(binary, e.args("serve")...)
	cmd.Stderr = &testLog{t: t}
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tools := listTools(t, ctx, cs)
	for _, p := range []string{"top.txt", filepath.Join(e.root, "top.txt")} {
		if env, _ := call(t, ctx, cs, tools, "fs_read", map[string]any{"path": p}); !env.Success {
			t.Errorf("%s with the client's roots elsewhere: %+v", p, env.Error)
		}
	}
	if env, _ := call(t, ctx, cs, tools, "fs_read", map[string]any{"path": filepath.Join(elsewhere, "secret.txt")}); env.Success {
		t.Error("the client's root widened the server's")
	}
}

// Roots are told apart by what the kernel resolves: a read-only root
// nested in a read-write one stays read-only through a link, and a root
// the operator named through a link answers to that name too.
func TestRootsByIdentity(t *testing.T) {
	ctx := testCtx(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	rw, ro, real := filepath.Join(base, "R"), filepath.Join(base, "R", "ro"), filepath.Join(base, "real")
	for _, d := range []string{ro, real} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(ro, "f.txt"), []byte("ro\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "g.txt"), []byte("real\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for target, link := range map[string]string{"ro": filepath.Join(rw, "alias"), real: filepath.Join(base, "linked")} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	cs := connectStdioArgs(t, ctx, []string{"serve", "--state-dir", t.TempDir(), "--root", rw, "--root", ro + ":ro", "--root", filepath.Join(base, "linked")})
	tools := listTools(t, ctx, cs)

	env, _ := call(t, ctx, cs, tools, "fs_write", map[string]any{"path": filepath.Join(rw, "alias", "f.txt"), "content": "changed\n"})
	if env.Success || env.Error.Code != "READ_ONLY" {
		t.Errorf("a write through a link into the read-only root: want READ_ONLY, got %+v", env.Error)
	}
	if b, _ := os.ReadFile(filepath.Join(ro, "f.txt")); string(b) != "ro\n" {
		t.Errorf("the read-only file holds %q", b)
	}
	env, _ = call(t, ctx, cs, tools, "fs_read", map[string]any{"path": filepath.Join(base, "linked", "g.txt")})
	if !env.Success || !strings.Contains(string(env.Data), "real") {
		t.Errorf("a root given through a link, read by that name: %+v", env.Error)
	}
}
