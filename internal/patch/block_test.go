package patch

import (
	"strings"
	"testing"
)

// The near-miss diff shows only what made the match fail: an old_text
// without a final newline matched against lines inside a file must not add a
// "No newline at end of file" difference.
func TestNearMissDiffShowsOnlyTheMiss(t *testing.T) {
	content := []byte("def f(x):\n    return x+1\n\ndef g(y):\n\treturn y*2\n\nprint(g(1))\n")
	nm, ok := FindNearMiss(content, "def g(y):\n    return y*2")
	if !ok {
		t.Fatal("no near miss found")
	}
	if nm.StartLine != 4 || nm.EndLine != 5 {
		t.Errorf("lines %d-%d, want 4-5", nm.StartLine, nm.EndLine)
	}
	if strings.Contains(nm.Diff, "No newline") {
		t.Errorf("diff reports a newline difference that is not the miss:\n%s", nm.Diff)
	}
	for _, want := range []string{"-    return y*2\n", "+\treturn y*2\n", " def g(y):\n"} {
		if !strings.Contains(nm.Diff, want) {
			t.Errorf("diff lacks %q:\n%s", want, nm.Diff)
		}
	}
}
