package kernelpath

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// toolsetsDir holds one package per toolset.
const toolsetsDir = "../toolsets"

// TestToolsetsNameNoKernelPath keeps the host read one way: a toolset
// reads the host through hostinfo, rooted at [host] proc and sys, and
// reaches hostmcp's own kernel paths through this package, never by
// spelling a /proc or /sys path or by opening procfs with
// prometheus/procfs itself. Either would read the container's own /proc
// where the operator pointed hostmcp at the host's.
func TestToolsetsNameNoKernelPath(t *testing.T) {
	found, err := kernelPathUses(toolsetsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range found {
		t.Errorf("%s", f)
	}
	if len(found) > 0 {
		t.Log("read the host through hostinfo.Host (its Proc and Sys roots come from [host]); hostmcp's own /proc/self, its children and the eBPF loader's paths are in internal/kernelpath")
	}
}

// TestKernelPathUsesFindsThem shows the check can fail: a fixture toolset
// with each kind of use is caught, at its line.
func TestKernelPathUsesFindsThem(t *testing.T) {
	found, err := kernelPathUses("testdata")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"testdata/badtoolset/bad.go:6: imports github.com/prometheus/procfs",
		"testdata/badtoolset/bad.go:7: imports github.com/prometheus/procfs/sysfs",
		`testdata/badtoolset/bad.go:11: names "/proc/%d/comm"`,
		"testdata/badtoolset/bad.go:12: names \"/sys/class/block\"",
		`testdata/badtoolset/bad.go:13: names "/proc"`,
	}
	if fmt.Sprint(found) != fmt.Sprint(want) {
		t.Errorf("found\n%s\nwant\n%s", strings.Join(found, "\n"), strings.Join(want, "\n"))
	}
}

// kernelPathUses lists, as file:line, every string literal that starts
// with /proc or /sys and every import of prometheus/procfs in the Go files
// (tests aside) under dir.
func kernelPathUses(dir string) ([]string, error) {
	var found []string
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.ImportSpec:
				p, _ := strconv.Unquote(n.Path.Value)
				if p == "github.com/prometheus/procfs" || strings.HasPrefix(p, "github.com/prometheus/procfs/") {
					found = append(found, fmt.Sprintf("%s: imports %s", line(fset, n), p))
				}
				return false
			case *ast.BasicLit:
				if n.Kind != token.STRING {
					return true
				}
				s, err := strconv.Unquote(n.Value)
				if err == nil && (strings.HasPrefix(s, "/proc") || strings.HasPrefix(s, "/sys")) {
					found = append(found, fmt.Sprintf("%s: names %q", line(fset, n), s))
				}
			}
			return true
		})
		return nil
	})
	return found, err
}

// line is where n starts, as file:line.
func line(fset *token.FileSet, n ast.Node) string {
	p := fset.Position(n.Pos())
	return p.Filename + ":" + strconv.Itoa(p.Line)
}
