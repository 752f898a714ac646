package tool

import (
	"regexp/syntax"
	"runtime"
	"strings"
	"testing"
)

// progSize must not undercount what the compiler emits, or a pattern could
// slip past the bound; nor overcount grossly, or realistic ones would be
// refused.
func TestProgSizeBoundsTheCompiledProgram(t *testing.T) {
	for _, expr := range []string{
		`needle`, `(?i)needle`, `(?m)^func \w+\(`, `a{1000}`, `(?:ab|cd){3,7}`, `x{2,}`, `(a)(b)(c)?`,
		`[a-z]+@[a-z]+\.(com|org)`, `\pL{100}`, `(?:(?:a{10}){10}){10}`, `(a|b|c|d)*e+f?`, `a{0,5}`, `(?:a?){0}`,
		strings.Repeat(`(?:x|yz)`, 300), strings.Repeat("a", 4096),
	} {
		re, err := syntax.Parse(expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		est := progSize(re)
		prog, err := syntax.Compile(re.Simplify())
		if err != nil {
			t.Fatal(err)
		}
		if got := len(prog.Inst); est < got-4 || est > 2*got {
			t.Errorf("%.40q: estimated %d instructions, compiled %d", expr, est, got)
		}
	}
}

func TestCompileRegexp(t *testing.T) {
	if re, err := CompileRegexp("pattern", "Needle", "i"); err != nil || !re.MatchString("a needle") {
		t.Fatalf("CompileRegexp(Needle, i) = %v, %v", re, err)
	}
	if _, err := CompileRegexp("pattern", strings.Repeat("a", 4096), ""); err != nil {
		t.Errorf("a 4096-character literal must compile: %v", err)
	}
	// 4 KB of a{1000}: 144 MB and a second to compile; refused before.
	bomb := strings.Repeat("a{1000}", 585)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := CompileRegexp("pattern", bomb, "i")
	runtime.ReadMemStats(&after)
	terr := AsError(err)
	if err == nil || terr.Code != InvalidArgument || !strings.Contains(terr.Message, "over the limit of 32768") {
		t.Fatalf("the bomb: %v", err)
	}
	if len(terr.Message) > 2*ClipBytes+200 {
		t.Errorf("message of %d bytes quotes too much: %s", len(terr.Message), terr.Message)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("refusing the bomb allocated %d MiB: it was compiled first", alloc>>20)
	}
	_, err = CompileRegexp("grep", "("+strings.Repeat("x", 5000), "")
	if terr := AsError(err); err == nil || terr.Code != InvalidArgument || !strings.Contains(terr.Message, "missing closing )") || len(terr.Message) > 2*ClipBytes+200 {
		t.Errorf("an unclosed group: %v", err)
	}
}
