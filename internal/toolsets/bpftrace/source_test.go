package bpftrace

import (
	"strings"
	"testing"
)

// The scan refuses what bpftrace or clang would act on while checking, in
// every spelling the lexers accept, and lets ordinary programs through.
func TestScanSource(t *testing.T) {
	for _, tc := range []struct {
		name, prog string
		refused    string // part of the reason; "" when accepted
		line       int
	}{
		// Accepted.
		{"tracepoint count", "tracepoint:raw_syscalls:sys_enter { @[comm] = count(); }", "", 0},
		{"system header", "#include <linux/sched.h>\n#include <net/sock.h>\nBEGIN { exit(); }", "", 0},
		{"spaced directive", "  #  include <linux/fs.h>\n#define AF_INET 2\n#define MAX(a, b) ((a) > (b) ? (a) : (b))\nBEGIN {}", "", 0},
		{"shebang line", "#!/usr/bin/bpftrace\nBEGIN { exit(); }", "", 0},
		{"conditionals as bpftrace's tools write them", "#ifndef BPFTRACE_HAVE_BTF\n#include <linux/socket.h>\n#else\n#include <sys/socket.h>\n#endif\n" +
			"#if defined(X) && X > 2\n#elif 1\n#endif\n#undef X\nBEGIN {}", "", 0},
		{"param count", "BEGIN { printf(\"%d\\n\", $#); }", "", 0},
		{"hash and dots in body strings", "BEGIN { printf(\"#include \\\"/etc/x\\\" ../..\\n\"); }", "", 0},
		{"hash and dots in comments", "// #include \"/etc/shadow\" ../..\n/* #include \"/x\"\n .. */ BEGIN {}", "", 0},
		{"predicate string", "tracepoint:syscalls:sys_enter_openat /str(args->filename) == \"/etc/passwd\"/ { }", "", 0},
		{"struct definition", "struct foo {\n  int a; // a field\n};\nuprobe:/usr/bin/x:f { $p = (struct foo *)arg0; }", "", 0},
		{"utf-8 in a string", "BEGIN { printf(\"café\\n\"); }", "", 0},

		// The preprocessor, which runs during the check.
		{"quoted include", "#include \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"absolute angle include", "#include </etc/shadow>\nBEGIN {}", "preprocessor", 1},
		{"climbing angle include", "#include <linux/../../../etc/shadow>\nBEGIN {}", "preprocessor", 1},
		{"include_next", "#include_next <stdio.h>\nBEGIN {}", "preprocessor", 1},
		{"import", "#import \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"has_include of a file", "#if __has_include(\"/root/x\")\n#endif\nBEGIN {}", "preprocessor", 1},
		{"has_include of a path", "#if __has_include(</root/x>)\n#endif\nBEGIN {}", "preprocessor", 1},
		{"error directive", "#error x\nBEGIN {}", "preprocessor", 1},
		{"line directive", "#line 1 \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"pragma", "#pragma GCC dependency \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"include in a struct", "struct x {\n#include \"/etc/shadow\"\n};\nBEGIN {}", "preprocessor", 2},
		{"define with a string", "#define F \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"define continued", "#define F \\\n#include \"/etc/shadow\"\nBEGIN {}", "preprocessor", 1},
		{"define with a comment", "#define F 1 /*\n#include \"/etc/shadow\"\n*/\nBEGIN {}", "preprocessor", 1},
		{"hash after a comment", "/* x */ #include \"/etc/shadow\"\nBEGIN {}", "'#' after other text", 1},
		{"hash mid-line", "BEGIN { @x = 1; } #include \"/etc/shadow\"", "'#' after other text", 1},
		{"digraph", "struct x {\n%:include \"/etc/shadow\"\n};\nBEGIN {}", "digraph", 2},
		{"pragma operator", "struct x { _Pragma(\"GCC dependency \\\"/etc/shadow\\\"\") int a; };\nBEGIN {}", "_Pragma", 1},
		{"char literal hiding a comment", "struct x {\nchar c['/*'];\n#include \"/etc/shadow\"\n*/ };\nBEGIN {}", "character literal", 2},
		{"carriage return ends clang's comment", "struct x { // c\r#include \"/etc/shadow\"\n};\nBEGIN {}", "control character", 1},
		{"nul byte", "BEGIN { exit(); }\x00#include \"/etc/shadow\"", "control character", 1},
		{"backslash splice", "struct x { int a; /\\\n* hidden */ };\nBEGIN {}", "backslash", 1},
		{"backslash newline in a body string", "BEGIN { printf(\"a\\\n#include x\"); }", "end of a line", 1},
		{"unterminated comment", "BEGIN {} /* #include", "never ends", 1},

		// Paths out of tracefs, and forged listing lines.
		{"tracepoint climbing", "tracepoint:../../../../tmp/tp:ev { }", "'..'", 1},
		{"quoted tracepoint climbing", "tracepoint:\"../../../../tmp/tp\":ev { }", "'..'", 1},
		{"kfunc module climbing", "kfunc:../../../tmp/m:f { }", "'..'", 1},
		{"escape in a probe name", "uprobe:/bin/bash:\"readline\\n uprobe:/bin/true:main\" { }", "escape in a string outside", 1},
		{"hex escape in a probe name", "BEGIN {}\nuprobe:/bin/bash:\"a\\x0a b\" { }", "escape in a string outside", 2},
		{"escape in a predicate", "BEGIN /comm == \"a\\n\"/ { }", "escape in a string outside", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := scanSource(tc.prog)
			switch {
			case tc.refused == "" && got != nil:
				t.Fatalf("refused at line %d: %s", got.line, got.what)
			case tc.refused != "" && got == nil:
				t.Fatal("accepted")
			case tc.refused != "" && (!strings.Contains(got.what, tc.refused) || got.line != tc.line):
				t.Fatalf("refused at line %d: %s; want line %d: ...%s...", got.line, got.what, tc.line, tc.refused)
			}
		})
	}
}

// The refusal is a tool error quoting the line, clipped.
func TestCheckSourceMessage(t *testing.T) {
	err := checkSource("BEGIN {}\n#include \"/etc/" + strings.Repeat("x", 1000) + "\"")
	if err == nil || !strings.Contains(err.Error(), "COMMAND_NOT_ALLOWED: line 2:") || len(err.Error()) > 500 {
		t.Fatalf("got %v", err)
	}
}

// FuzzScanSource: no input panics the scan, and a refusal names a line of
// the program.
func FuzzScanSource(f *testing.F) {
	for _, s := range []string{"BEGIN { exit(); }", "#include <linux/sched.h>\nBEGIN {}", "struct x {\n%:include \"a\"\n};", "BEGIN /\"a\\n\"/ {}", "/* x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, prog string) {
		r := scanSource(prog)
		if r != nil && (r.line < 1 || r.line > strings.Count(prog, "\n")+1) {
			t.Fatalf("line %d of a %d-line program", r.line, strings.Count(prog, "\n")+1)
		}
	})
}
