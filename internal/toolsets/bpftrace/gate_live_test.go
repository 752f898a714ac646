package bpftrace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

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
