package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// setOver is the search toolset over dir as its only root, allowed to run
// rg; the root is closed when the test ends.
func setOver(tb testing.TB, dir string) *Set {
	tb.Helper()
	roots, err := fsroot.Open([]fsroot.Spec{{Path: dir}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { roots.Close() })
	ex, err := execx.New(&execx.Options{Allowed: []string{"rg"}})
	if err != nil {
		tb.Fatal(err)
	}
	return New(&Deps{Roots: roots, Exec: ex})
}

// call runs a search tool and returns its result and the bytes it allocated.
func call(t *testing.T, d *tool.Def, args map[string]any) (tool.Result, uint64) {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	res := (&tool.Runner{Handles: func(context.Context, string, map[string]any, []byte) (string, error) { return "H_x", nil }}).
		Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	runtime.ReadMemStats(&after)
	return res, after.TotalAlloc - before.TotalAlloc
}

// The case: a 3 MB pattern took 1 GB and 8 s to compile before
// ripgrep's argv refused it, and 4 KB of a{1000} takes 144 MB. Both are
// refused now before any work, with a message that names the argument and
// the limit and quotes a clipped prefix.
func TestCostlyPatternsRefusedCheaply(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("aaa\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := setOver(t, dir)
	cases := []struct {
		name, tool, arg, value, want string
		code                         tool.Code
	}{
		{"3 MB pattern", "search_content", "pattern", strings.Repeat("a", 3<<20), "argument pattern is 3145728 characters long, over its limit of 4096", tool.InvalidParams},
		{"3 MB glob", "search_content", "file_glob", strings.Repeat("a{1000}", 3<<20/7), "argument file_glob is 3145723 characters long", tool.InvalidParams},
		{"3 MB name pattern", "search_files", "pattern", strings.Repeat("*a", 3<<19), "argument pattern is 3145728 characters long", tool.InvalidParams},
		{"4 KB of a{1000}", "search_content", "pattern", strings.Repeat("a{1000}", 585), "is too large once compiled: about 585000 instructions, over the limit of 32768", tool.InvalidArgument},
	}
	defs := map[string]*tool.Def{"search_content": s.content(), "search_files": s.files()}
	for _, tc := range cases {
		for _, eng := range []string{"native", "rg"} {
			if eng == "rg" && !s.exec.Available("rg") {
				continue
			}
			args := map[string]any{"pattern": "a", "engine": eng}
			args[tc.arg] = tc.value
			res, alloc := call(t, defs[tc.tool], args)
			if res.Err == nil || res.Err.Code != tc.code || !strings.Contains(res.Err.Message, tc.want) {
				t.Errorf("%s (%s): got %.300v, want %s with %q", tc.name, eng, res.Err, tc.code, tc.want)
				continue
			}
			if len(res.Err.Message) > 2*tool.ClipBytes+200 {
				t.Errorf("%s (%s): message of %d bytes", tc.name, eng, len(res.Err.Message))
			}
			// Over the copies of the argument itself that decoding makes.
			if max := uint64(8*len(tc.value) + 8<<20); alloc > max {
				t.Errorf("%s (%s): refusing it allocated %d MiB", tc.name, eng, alloc>>20)
			}
		}
	}
}

// ripgrep refuses a pattern whose compiled form is over its size limit.
// That was read as "no match": a search for \w{1000} found nothing with rg
// and the line with the native engine. It is an error now.
func TestRgSizeLimitIsAnError(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte(strings.Repeat("w", 1000)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := call(t, setOver(t, dir).content(), map[string]any{"pattern": `\w{1000}`, "engine": "rg"})
	if res.Err == nil || res.Err.Code != tool.InvalidArgument || !strings.Contains(res.Err.Message, "exceeds size limit") {
		t.Fatalf("want ripgrep's refusal as INVALID_ARGUMENT, got %s", res.JSON)
	}
}

// Each .gitignore pattern compiles to a regexp of about 1 KiB: a tree whose
// .gitignore holds 150,000 lines cost 700 MB in the native walker. The walk
// compiles at most maxIgnorePatterns of them and says how many it left out.
func TestIgnorePatternsBounded(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	lines := 0
	for ; b.Len() < 1<<20-8192; lines++ {
		fmt.Fprintf(&b, "x%d\n", lines)
	}
	b.WriteString(strings.Repeat("y", 5000) + "\n") // over maxPattern: left out too
	for p, c := range map[string]string{".gitignore": b.String(), "keep.txt": "needle\n"} {
		if err := os.WriteFile(filepath.Join(dir, p), []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, _ := call(t, setOver(t, dir).content(), map[string]any{"pattern": "needle", "engine": "native"})
	if res.Err != nil {
		t.Fatal(res.Err.Message)
	}
	want := fmt.Sprintf("%d .gitignore lines were not applied", lines-maxIgnorePatterns+1)
	if !strings.Contains(string(res.JSON), want) || !strings.Contains(string(res.JSON), "keep.txt") {
		t.Errorf("want the hit and the warning %q: %s", want, res.JSON)
	}
}
