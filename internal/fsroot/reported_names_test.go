package fsroot

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostileNames are file names a tree may hold that a careless reader of
// directory entries or of rg's lines would mangle.
var hostileNames = []string{
	"plain.txt", "with space.txt", "new\nline.txt", "tab\there", "-leading-dash", "--", "-",
	"star*.go", "q?.go", "[class].go", "{a,b}.go", "back\\slash", "bad-\xff\xfe-utf8", "\u202eevil",
	"quote\"d", "long-" + strings.Repeat("x", 230),
}

// Regular admits every odd name of a regular file, in the start and in a
// directory below it (held open by O_PATH), and refuses links (inside or
// out, to files or directories, dangling), FIFOs and directories named as
// oddly.
func TestRegularOddNames(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, outside, "o.txt")
	for _, d := range []string{"tree", "tree/sub"} {
		for _, n := range hostileNames {
			writeFiles(t, root, d+"/"+n)
			for link, to := range map[string]string{
				"out.lnk ": filepath.Join(outside, "o.txt"), "in.lnk ": filepath.Join(root, d, n), "dir.lnk ": outside, "dangling ": "nowhere",
			} {
				if err := os.Symlink(to, filepath.Join(root, d, link+n)); err != nil {
					t.Fatal(err)
				}
			}
			if err := syscall.Mkfifo(filepath.Join(root, d, "fifo "+n), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Mkdir(filepath.Join(root, d, "dir "+n), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	for _, d := range []string{"", "sub/"} {
		for _, n := range hostileNames {
			if !r.Regular(d + n) {
				t.Errorf("Regular(%q) = false", d+n)
			}
			for _, not := range []string{"out.lnk ", "in.lnk ", "dir.lnk ", "dangling ", "fifo ", "dir "} {
				if r.Regular(d + not + n) {
					t.Errorf("Regular(%q) = true", d+not+n)
				}
			}
		}
	}
}

// splitReported refuses and splits every path as it did with path.Clean,
// over every string of up to eight of the bytes that matter.
func TestSplitReportedAsPathClean(t *testing.T) {
	old := func(rel string) (string, string, bool) {
		if rel == "" || path.IsAbs(rel) || path.Clean(rel) != rel || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", "", false
		}
		return path.Dir(rel), path.Base(rel), true
	}
	var all func(prefix string, n int)
	checked := 0
	all = func(prefix string, n int) {
		d, b, ok := splitReported(prefix)
		wd, wb, wok := old(prefix)
		if d != wd || b != wb || ok != wok {
			t.Errorf("splitReported(%q) = %q %q %v, want %q %q %v", prefix, d, b, ok, wd, wb, wok)
		}
		checked++
		if n == 0 {
			return
		}
		for _, c := range []string{"a", ".", "/", "b"} {
			all(prefix+c, n-1)
		}
	}
	all("", 8)
	if checked < 80000 {
		t.Fatalf("only %d paths checked", checked)
	}
}

// A file swapped for a link after one check is refused by the next, through
// the same directory held open (O_PATH) meanwhile.
func TestRegularSeesAFileSwappedForALink(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	writeFiles(t, outside, "o.txt")
	writeFiles(t, root, "tree/a.txt", "tree/sub/a.txt")
	r := reportedOn(t, newSet(t, Spec{Path: root}), false)
	for _, rel := range []string{"a.txt", "sub/a.txt"} {
		if !r.Regular(rel) {
			t.Fatalf("%s refused before the swap", rel)
		}
		p := filepath.Join(root, "tree", rel)
		if err := os.Remove(p); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(filepath.Join(outside, "o.txt"), p); err != nil {
			t.Fatal(err)
		}
		if r.Regular(rel) {
			t.Errorf("%s admitted after it became a link", rel)
		}
		if f, err := r.Open(rel); err == nil {
			f.Close()
			t.Errorf("%s opened after it became a link", rel)
		}
	}
}
