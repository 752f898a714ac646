package bpftrace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// refused runs a program through bpftrace_exec_program and fails unless it
// is refused with code want; it returns the error for further checks.
func refused(t *testing.T, s *Set, program string, want tool.Code) *tool.Error {
	t.Helper()
	out, terr := run[execOut](t, s.execProgram(), map[string]any{"program": program})
	if terr == nil {
		_, _ = run[resultOut](t, s.stop(), map[string]any{"execution_id": out.ExecutionID})
		t.Fatalf("%q ran (%s); want %s", program, out.ExecutionID, want)
	}
	if terr.Code != want {
		t.Fatalf("%q: got %s %q, want %s", program, terr.Code, terr.Message, want)
	}
	return terr
}

// cat() reads any file as root; it is off by default, and the refusal
// names the setting.
func TestCatRefusedByDefault(t *testing.T) {
	s := liveSet(t, nil)
	terr := refused(t, s, `BEGIN { cat("/etc/hostname"); exit(); }`, tool.FeatureDisabled)
	if !strings.Contains(terr.Message, "allow_cat") {
		t.Fatalf("the refusal does not name the setting: %q", terr.Message)
	}
}

// A uretprobe on bash's readline is the classic keylogger: refused, naming
// the setting that would allow it.
func TestReadlineUretprobeRefused(t *testing.T) {
	s := liveSet(t, nil)
	terr := refused(t, s, `uretprobe:/bin/bash:readline { printf("%s\n", str(retval)); }`, tool.FeatureDisabled)
	if !strings.Contains(terr.Message, "allow_shell_uprobes") {
		t.Fatalf("the refusal does not name the setting: %q", terr.Message)
	}
}

// clang reads an #include'd file during the check itself, and quoted its
// words in the error the agent got back: such a directive is refused before
// bpftrace runs at all.
func TestIncludeOfAFileRefusedUnread(t *testing.T) {
	s := liveSet(t, nil)
	secret := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(secret, []byte("wordfromthesecretfile\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	terr := refused(t, s, "#include \""+secret+"\"\nBEGIN { exit(); }", tool.CommandNotAllowed)
	if strings.Contains(terr.Message, "wordfromthesecretfile") {
		t.Fatalf("the file's content came back: %q", terr.Message)
	}
}

// bpftrace reads a tracepoint's format file from the category and event
// names, and ".." took it out of tracefs to any file named format; the
// fields it read came back in the error.
func TestTracepointPathTraversalRefused(t *testing.T) {
	s := liveSet(t, nil)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ev"), 0o700); err != nil {
		t.Fatal(err)
	}
	format := "name: ev\nID: 1\nformat:\n\tfield:int wordfromtheformatfile;\toffset:0;\tsize:4;\tsigned:1;\n"
	if err := os.WriteFile(filepath.Join(dir, "ev", "format"), []byte(format), 0o600); err != nil {
		t.Fatal(err)
	}
	prog := "tracepoint:../../../../../../../.." + dir + ":ev { printf(\"%d\\n\", args->nosuch); }"
	terr := refused(t, s, prog, tool.CommandNotAllowed)
	if strings.Contains(terr.Message, "wordfromtheformatfile") {
		t.Fatalf("the file's content came back: %q", terr.Message)
	}
}

// The names of gated builtins inside strings and comments are text, not
// calls: such a program runs.
func TestGatedNamesInTextRun(t *testing.T) {
	s := liveSet(t, nil)
	prog := "// cat(\"/etc/hostname\") and system(\"id\") here are a comment\n" +
		`BEGIN { printf("system(\"id\") cat(\"/etc/shadow\")\n"); exit(); }`
	st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": prog})
	if terr != nil {
		t.Fatal(terr)
	}
	r := wait(t, s, st.ExecutionID)
	if r.Status != "completed" || !strings.Contains(strings.Join(outputText(r), ""), `system("id") cat("/etc/shadow")`) {
		t.Fatalf("run: %+v", r)
	}
}

// outputText is the text of a run's printf records.
func outputText(r resultOut) []string {
	var out []string
	for _, rec := range r.Output {
		if m, ok := rec.(map[string]any); ok && m["type"] == "printf" {
			if s, ok := m["data"].(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// With allow_cat, cat() runs and prints the file.
func TestCatRunsWhenAllowed(t *testing.T) {
	s := liveSet(t, func(c *config.BpftraceConf) { c.AllowCat = true })
	want, err := os.ReadFile("/etc/hostname")
	if err != nil {
		t.Fatal(err)
	}
	st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `BEGIN { cat("/etc/hostname"); exit(); }`})
	if terr != nil {
		t.Fatal(terr)
	}
	r := wait(t, s, st.ExecutionID)
	var got string
	for _, rec := range r.Output {
		if m, ok := rec.(map[string]any); ok && m["type"] == "cat" {
			got, _ = m["data"].(string)
		}
	}
	if r.Status != "completed" || got != string(want) {
		t.Fatalf("run %s, cat printed %q, want %q", r.Status, got, want)
	}
}

// With allow_shell_uprobes, the uretprobe on bash's readline passes the
// check and runs (stopped at once: nobody types here).
func TestShellUprobeRunsWhenAllowed(t *testing.T) {
	s := liveSet(t, func(c *config.BpftraceConf) { c.AllowShellUprobes = true })
	st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": `uretprobe:/bin/bash:readline { printf("%s\n", str(retval)); }`, "timeout": 1})
	if terr != nil {
		t.Fatal(terr)
	}
	if r := wait(t, s, st.ExecutionID); r.Status != "timeout" {
		t.Fatalf("run: %+v", r)
	}
}

// Every spelling of a gated construct is refused with the code and the
// setting that allows it; a program in the same spellings that touches
// nothing gated runs.
func TestEvasionsRefused(t *testing.T) {
	s := liveSet(t, nil)
	libc := findLibc(t)
	dir := t.TempDir()
	copyFile(t, "/usr/bin/true", filepath.Join(dir, "setuid-true"), os.ModeSetuid|0o755)
	copyFile(t, "/usr/bin/true", filepath.Join(dir, "nobodys-true"), 0o755)
	if err := os.Chown(filepath.Join(dir, "nobodys-true"), 65534, 65534); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/usr/bin/bash", filepath.Join(dir, "innocent")); err != nil {
		t.Fatal(err)
	}
	hardLink := filepath.Join(dir, "also-innocent")
	if err := os.Link("/usr/bin/bash", hardLink); err != nil {
		hardLink = "/usr/bin/bash" // another file system: the row repeats the plain case
	}
	const shell, lib, others = "allow_shell_uprobes", "allow_library_uprobes", "allow_others_uprobes"
	for _, tc := range []struct {
		name, prog string
		code       tool.Code
		key        string // named in the message
	}{
		{"cat, comment before the parenthesis", `BEGIN { cat /* x */ ("/etc/hostname"); exit(); }`, tool.FeatureDisabled, "allow_cat"},
		{"cat, newline and tab before it", "BEGIN { cat\n\t(\"/etc/hostname\"); exit(); }", tool.FeatureDisabled, "allow_cat"},
		{"cat in a nested block", `BEGIN { if (1) { cat("/etc/hostname"); } exit(); }`, tool.FeatureDisabled, "allow_cat"},
		{"cat in a predicate-guarded probe", `tracepoint:syscalls:sys_enter_openat /pid == 1/ { cat("/etc/hostname"); }`, tool.FeatureDisabled, "allow_cat"},
		{"cat through a macro (bpftrace does not expand it)", "#define C cat\nBEGIN { C(\"/etc/hostname\"); }", tool.InvalidArgument, "Unknown function"},
		{"system, comment before the parenthesis", `BEGIN { system /**/ ("id"); }`, tool.CommandNotAllowed, "allow_unsafe_builtins"},
		{"readline uretprobe", `uretprobe:/bin/bash:readline { }`, tool.FeatureDisabled, shell},
		{"short alias", `ur:/bin/bash:readline { }`, tool.FeatureDisabled, shell},
		{"name looked up on PATH", `ur:bash:readline { }`, tool.FeatureDisabled, shell},
		{"quoted path", `uretprobe:"/bin/bash":readline { }`, tool.FeatureDisabled, shell},
		{"wildcard path", `uprobe:/usr/bin/ba*:readline { }`, tool.FeatureDisabled, shell},
		{"wildcard symbol", `uprobe:/bin/bash:read* { }`, tool.FeatureDisabled, shell},
		{"probe-type wildcard", `u*:/bin/bash:readline { }`, tool.FeatureDisabled, shell},
		{"second in a probe list", `tracepoint:syscalls:sys_enter_write, uretprobe:/bin/bash:readline { }`, tool.FeatureDisabled, shell},
		{"after a harmless probe", "interval:s:1 { exit(); }\n\nuretprobe:/bin/bash:readline\n{ }", tool.FeatureDisabled, shell},
		{"rbash, a symlink to bash", `uprobe:/usr/bin/rbash:readline { }`, tool.FeatureDisabled, shell},
		{"sh, a symlink to dash", `uprobe:/bin/sh:main { }`, tool.FeatureDisabled, shell},
		{"a symlink of our own", "uprobe:" + filepath.Join(dir, "innocent") + ":readline { }", tool.FeatureDisabled, shell},
		{"a hard link of our own", "uprobe:" + hardLink + ":readline { }", tool.FeatureDisabled, shell},
		{"libc by name", `uprobe:libc:read { }`, tool.FeatureDisabled, lib},
		{"libc by path", "uretprobe:" + libc + ":read { }", tool.FeatureDisabled, lib},
		{"USDT in libc", "U:" + libc + ":libc:setjmp { }", tool.FeatureDisabled, lib},
		{"USDT wildcard in libc", "usdt:" + libc + ":libc:* { }", tool.FeatureDisabled, lib},
		{"setuid program", "uprobe:" + filepath.Join(dir, "setuid-true") + ":main { }", tool.FeatureDisabled, others},
		{"another user's program", "uprobe:" + filepath.Join(dir, "nobodys-true") + ":main { }", tool.FeatureDisabled, others},
		{"watchpoint", `w:0x1000:4:w { }`, tool.CommandNotAllowed, "watchpoint"},
		{"quoted include", "#include \"/etc/hostname\"\nBEGIN { exit(); }", tool.CommandNotAllowed, "preprocessor"},
		{"listing forged in a struct's comment", "struct x {\n/*\nAST after: Semantic\n---\nProgram\n BEGIN\n*/\nint a;\n};\n" +
			"uretprobe:/bin/bash:readline { $p = (struct x *)0; }", tool.ExecutionFailed, "could not be checked"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			terr := refused(t, s, tc.prog, tc.code)
			if !strings.Contains(terr.Message, tc.key) {
				t.Fatalf("the message does not name %s: %q", tc.key, terr.Message)
			}
		})
	}
}

// toolShaped is a program in the shape of bpftrace's own tools: a shebang,
// a block comment, conditional includes, a predicate on a string.
const toolShaped = `#!/usr/bin/env bpftrace
/*
 * Counts openat(2) by process, as opensnoop.bt would.
 */
#ifndef BPFTRACE_HAVE_BTF
#include <linux/socket.h>
#include <net/sock.h>
#else
#include <sys/socket.h>
#endif

BEGIN { printf("Tracing open()s... Hit Ctrl-C to end.\n"); }
tracepoint:syscalls:sys_enter_openat /comm != "bpftrace"/ { @[comm] = count(); }
interval:ms:200 { exit(); }
`

// What is not gated still runs: a tracepoint count, a program shaped like
// bpftrace's own tools, and a uprobe on a root-owned program that is
// neither a shell nor a library.
func TestUngatedProbesRun(t *testing.T) {
	s := liveSet(t, nil)
	for _, prog := range []string{
		toolShaped,
		`tracepoint:syscalls:sys_enter_write { @writes = count(); } interval:ms:200 { exit(); }`,
		`uprobe:/usr/bin/true:main { @ = count(); } interval:ms:200 { exit(); }`,
	} {
		st, terr := run[execOut](t, s.execProgram(), map[string]any{"program": prog})
		if terr != nil {
			t.Fatalf("%s: %v", prog, terr)
		}
		if r := wait(t, s, st.ExecutionID); r.Status != "completed" {
			t.Fatalf("%s: %+v", prog, r)
		}
	}
}
