package flamegraph

import (
	"bytes"
	"encoding/xml"
	"strings"
	"testing"
)

func TestRender(t *testing.T) {
	in := []byte("burn;main;spin 75\nburn;main;io 25\nidle 100\n")
	a, err := Render(in, "CPU <profile>")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Render(in, "CPU <profile>")
	if !bytes.Equal(a, b) {
		t.Fatal("two renderings of the same stacks differ")
	}
	if err := xml.Unmarshal(a, new(struct{})); err != nil {
		t.Fatalf("not well-formed XML: %v", err)
	}
	s := string(a)
	for _, want := range []string{"<title>all (200 samples, 100.00%)</title>", "<title>spin (75 samples, 37.50%)</title>", "<title>idle (100 samples, 50.00%)</title>", "CPU &lt;profile&gt;"} {
		if !strings.Contains(s, want) {
			t.Errorf("missing %q", want)
		}
	}
	if _, err := Render([]byte("no count here\n"), ""); err == nil {
		t.Error("a line without a count was accepted")
	}
}

func FuzzRender(f *testing.F) {
	f.Add([]byte("a;b;c 3\na;d 1\n"))
	f.Fuzz(func(t *testing.T, in []byte) {
		out, err := Render(in, "t")
		if err == nil && !bytes.HasSuffix(out, []byte("</svg>\n")) {
			t.Fatal("unterminated SVG")
		}
	})
}
