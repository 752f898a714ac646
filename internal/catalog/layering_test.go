package catalog

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const toolsetsImport = "github.com/hostmcp/hostmcp/internal/toolsets/"

// No toolset imports another: what two toolsets share lives in a package
// of its own below them (internal/bpfprog, internal/hostinfo...), and the
// catalog composes them. A toolset's own subpackages (repl/sessinit,
// profile/window) are its own. Tests are held to it too, but for the
// containment tests that check fs tools and search against each other.
func TestToolsetsImportNoOtherToolset(t *testing.T) {
	root := filepath.Join("..", "toolsets")
	files := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		own := strings.SplitN(filepath.ToSlash(rel), "/", 2)[0]
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		files++
		for _, imp := range f.Imports {
			p, _ := strconv.Unquote(imp.Path.Value)
			other, ok := strings.CutPrefix(p, toolsetsImport)
			if !ok || strings.SplitN(other, "/", 2)[0] == own {
				continue
			}
			if strings.HasSuffix(path, "_test.go") && containmentCrossCheck[filepath.ToSlash(rel)] {
				continue
			}
			t.Errorf("%s imports %s: toolsets share code through packages below them, never each other", path, p)
		}
		return nil
	})
	if err != nil || files < 50 {
		t.Fatalf("walked %d files: %v", files, err)
	}
}

// containmentCrossCheck are tests that run one toolset's containment
// cases through another's tools, on purpose.
var containmentCrossCheck = map[string]bool{"files/containment_test.go": true}
