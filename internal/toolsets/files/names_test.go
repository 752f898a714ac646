package files

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// Names that would mislead or be lost if shown raw (a right-to-left
// override, a control character, bytes that are not UTF-8) are listed
// escaped, and the escaped form addresses the file in every other tool.
func TestOddNamesListedEscapedAndAddressable(t *testing.T) {
	n := newNestedRO(t)
	odd := []string{"evil\u202etxt.sh", "bell\a.txt", "latin1-\xe9t\xe9.txt"}
	for _, name := range odd {
		mustDo(t, os.WriteFile(filepath.Join(n.rw, name), []byte("odd\n"), 0o644))
	}
	ctx := context.Background()
	list := tooltest.MustRun[listOut](t, ctx, n.tools["fs_list"], map[string]any{"path": n.rw})
	shown := map[string]bool{}
	for _, e := range list.Entries {
		shown[e.Path] = true
		if strings.ContainsAny(e.Path, "\u202e\a") {
			t.Errorf("listed raw: %q", e.Path)
		}
	}
	for _, name := range odd {
		esc := fsroot.ShowName(name)
		if !shown[esc] {
			t.Errorf("%q not listed as %q; listed %v", name, esc, shown)
		}
		got := tooltest.MustRun[readOut](t, ctx, n.tools["fs_read"], map[string]any{"path": esc})
		if got.Content != "odd\n" {
			t.Errorf("reading %q: %q", esc, got.Content)
		}
		tooltest.MustRun[deleteOut](t, ctx, n.tools["fs_delete"], map[string]any{"path": esc})
		if _, err := os.Lstat(filepath.Join(n.rw, name)); !os.IsNotExist(err) {
			t.Errorf("deleting %q left %q: %v", esc, name, err)
		}
	}
}
