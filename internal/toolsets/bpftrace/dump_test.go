package bpftrace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The fixtures are bpftrace 0.17's -d output on this project's machines,
// the LLVM IR cut after its first lines.
func readDump(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "dump", name+".txt"))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// Attach points come from the tree after semantic analysis: aliases and
// probe-type wildcards expanded, lists one per line, names resolved.
func TestDumpProbes(t *testing.T) {
	got, err := dumpProbes(readDump(t, "lists"))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"BEGIN", "uretprobe:/usr/bin/bash:readline", "uprobe:/lib/x86_64-linux-gnu/libc.so.6:malloc",
		"uprobe:/bin/ba*:readline", "uprobe:/bin/bash:rl_*", "usdt:/bin/bash:rl_*", "tracepoint:syscalls:sys_enter_write"}
	if diff := cmp.Diff(got, want); diff != "" {
		t.Fatalf("probes (-got +want):\n%s", diff)
	}
}

// Calls are found in every pass, and text that only looks like a call line
// adds a name (a false refusal of a crafted program), never hides one.
func TestDumpCalls(t *testing.T) {
	for _, tc := range []struct {
		fixture string
		want    []string
	}{
		{"lists", []string{"cat", "count", "printf"}},
		{"unsafe", []string{"system"}},             // semantic analysis failed: the parser's tree
		{"comment-calls", []string{"cat", "exit"}}, // "call: cat" inside a C comment
		{"forged", nil},
	} {
		t.Run(tc.fixture, func(t *testing.T) {
			calls := dumpCalls(readDump(t, tc.fixture))
			var got []string
			for _, n := range []string{"cat", "count", "exit", "printf", "str", "system"} {
				if calls[n] {
					got = append(got, n)
				}
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Fatalf("calls (-got +want):\n%s", diff)
			}
		})
	}
}

// A layout that is not exactly bpftrace's is refused rather than read: a C
// comment that forges a pass header, a second Program line, a tree cut
// short, no semantic pass at all.
func TestDumpProbesRefusesOddLayouts(t *testing.T) {
	lists := readDump(t, "lists")
	for _, tc := range []struct {
		name, out string
	}{
		{"forged header in a struct comment", readDump(t, "forged")},
		{"no semantic pass", readDump(t, "unsafe")},
		{"empty", ""},
		{"second Program line", strings.Replace(lists, "AST after: Semantic\n-------------------\n", "AST after: Semantic\n-------------------\nProgram\n BEGIN\n\n", 1)},
		{"tree cut short", lists[:strings.Index(lists, " uprobe:/bin/ba*")]},
		{"unindented line in the tree", strings.Replace(lists, "AST after: Semantic\n-------------------\nProgram\n", "AST after: Semantic\n-------------------\nProgram\nx\n", 1)},
		{"no attach point", "AST after: Semantic\n---\nProgram\n\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := dumpProbes(tc.out); err == nil {
				t.Fatalf("read %q", got)
			}
		})
	}
}

// FuzzDumpProbes: no input panics the reader, and what it returns are
// lines of its input.
func FuzzDumpProbes(f *testing.F) {
	f.Add("AST after: Semantic\n---\nProgram\n BEGIN\n  call: exit\n\n")
	f.Add("\nAST after: Semantic\n-\nstruct x {};\nProgram\n uprobe:/bin/x:f\n\nAST after: NodeCounter\n")
	f.Fuzz(func(t *testing.T, out string) {
		probes, err := dumpProbes(out)
		for _, p := range probes {
			if !strings.Contains(out, "\n "+p+"\n") {
				t.Fatalf("%q is not a line of the input", p)
			}
		}
		if err == nil && len(probes) == 0 {
			t.Fatal("no error and no probes")
		}
		_ = dumpCalls(out)
	})
}
