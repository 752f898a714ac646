package catalog

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's layout paragraph (under "Development") is the map a new
// reader starts from, so it must match the tree: every path it names
// exists, and every package directly under internal/ is named in it.
// A rename that forgets the README fails here rather than misleading.
func TestReadmeLayoutMatchesTree(t *testing.T) {
	const root = "../.."
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	layout := readmeLayout(t, string(b))
	named := map[string]bool{}
	for _, m := range regexp.MustCompile("`([a-z][a-z0-9_./<>-]*)`").FindAllStringSubmatch(layout, -1) {
		p := strings.TrimSuffix(m[1], "/")
		p, _, _ = strings.Cut(p, "/<") // internal/toolsets/<name> names internal/toolsets
		if !strings.Contains(p, "/") || strings.Contains(p, "*") || !isTreePath(p) {
			continue
		}
		named[p] = true
		if _, err := os.Stat(filepath.Join(root, p)); err != nil {
			t.Errorf("README layout names %s, which is not in the tree", p)
		}
	}
	dirs, err := os.ReadDir(filepath.Join(root, "internal"))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if p := "internal/" + d.Name(); d.IsDir() && !named[p] {
			t.Errorf("README layout does not name %s", p)
		}
	}
}

// readmeLayout returns the README's paragraph that starts "Layout:".
func readmeLayout(t *testing.T, readme string) string {
	t.Helper()
	_, dev, ok := strings.Cut(readme, "\n## Development\n")
	if !ok {
		t.Fatal(`README has no "## Development" section`)
	}
	_, layout, ok := strings.Cut(dev, "\nLayout: ")
	if !ok {
		t.Fatal(`README's Development section has no "Layout:" paragraph`)
	}
	layout, _, _ = strings.Cut(layout, "\n\n")
	return layout
}

// isTreePath says whether p is a path of this repository rather than a
// command or a file name in prose.
func isTreePath(p string) bool {
	for _, top := range []string{"cmd/", "internal/", "test/", "packaging", "deploy/", "bench", "docs/", "scripts/"} {
		if strings.HasPrefix(p, top) {
			return true
		}
	}
	return false
}
