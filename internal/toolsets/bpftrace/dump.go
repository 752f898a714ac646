package bpftrace

import (
	"errors"
	"fmt"
	"strings"
)

// bpftrace -d (a dry run: nothing attached) prints the program's syntax tree
// after each pass, then its LLVM IR:
//
//	AST after: parser
//	-------------------
//	[the program's C definitions, verbatim]
//	Program
//	 BEGIN
//	  call: cat :: type[none, ctx: 0]
//	   string: /etc/hostname :: type[none, ctx: 0]
//	 uretprobe:/bin/bash:readline
//	...
//	(a blank line, then "AST after: Semantic" and so on)
//
// This is bpftrace's own reading of the program, after what spelling can
// vary: comments and strings are gone, aliases are expanded (u: is uprobe,
// ur: uretprobe, U: usdt), probe lists and probe-type wildcards become one
// attach point per line, library names are resolved (libc is
// /lib/x86_64-linux-gnu/libc.so.6) and, after the Semantic pass, so are
// names found on PATH (bash is /usr/bin/bash). Strings are printed escaped
// (src/ast/passes/printer.cpp); checkSource keeps out the few places where
// program text is printed as it is on a tree line (names in quotes between
// probes), so every line after "Program" is one node.

// astHeader starts the line that names each pass.
const astHeader = "AST after: "

// dumpCalls are the functions the program calls, from every "call: NAME"
// line of the output. Text that only looks like such a line (in a C
// comment, printed verbatim before "Program") can add a name, never hide
// one, so this needs no trust in the layout.
func dumpCalls(out string) map[string]bool {
	calls := map[string]bool{}
	for _, l := range strings.Split(out, "\n") {
		rest := strings.TrimLeft(l, " ")
		if len(rest) == len(l) || !strings.HasPrefix(rest, "call: ") {
			continue
		}
		name, _, _ := strings.Cut(strings.TrimPrefix(rest, "call: "), " ")
		calls[name] = true
	}
	return calls
}

// errNoSemantic says the output holds no tree after semantic analysis: the
// program did not pass it, or the output is not bpftrace -d's.
var errNoSemantic = errors.New("no syntax tree after semantic analysis")

// dumpProbes are the program's attach points after semantic analysis, one
// per line as bpftrace names them ("uprobe:/usr/bin/bash:readline"). The
// layout must be exactly as expected, one such pass and one "Program" line
// in it, or nothing is returned: text that could have moved the tree is a
// refusal, not a guess.
func dumpProbes(out string) ([]string, error) {
	lines := strings.Split(out, "\n")
	start := -1
	for i, l := range lines {
		if l == astHeader+"Semantic" {
			if start >= 0 {
				return nil, fmt.Errorf("%q printed twice", l)
			}
			start = i + 1
		}
	}
	if start < 0 {
		return nil, errNoSemantic
	}
	program := -1
	end := len(lines)
	for i := start; i < len(lines); i++ {
		if strings.HasPrefix(lines[i], astHeader) || strings.HasPrefix(lines[i], "; ModuleID") {
			end = i
			break
		}
		if lines[i] == "Program" {
			if program >= 0 {
				return nil, errors.New(`"Program" printed twice in one pass`)
			}
			program = i
		}
	}
	if program < 0 {
		return nil, errors.New(`no "Program" line after semantic analysis`)
	}
	var probes []string
	closed := false
	for _, l := range lines[program+1 : end] {
		if l == "" {
			closed = true
			break
		}
		if len(l) < 2 || l[0] != ' ' {
			return nil, fmt.Errorf("unexpected line in the tree: %q", l)
		}
		if l[1] != ' ' {
			probes = append(probes, l[1:])
		}
	}
	if !closed || len(probes) == 0 {
		return nil, errors.New("the tree after semantic analysis is incomplete")
	}
	return probes, nil
}
