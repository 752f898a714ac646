package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// tree writes a test tree: nested .gitignore files with negation and
// directory patterns, hidden files and directories, a binary file, long
// lines, CRLF, invalid UTF-8 and a symlink.
func tree(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		".gitignore":             "*.log\nbuild/\n/top.txt\n!keep.log\n",
		"top.txt":                "needle top\n",
		"a/top.txt":              "needle nested top\n",
		"keep.log":               "needle kept\n",
		"drop.log":               "needle dropped\n",
		"build/out.txt":          "needle build\n",
		"a/b/build.txt":          "needle not a dir\n",
		"a/.gitignore":           "*.tmp\n!important.tmp\nsub/**/x.txt\n",
		"a/x.tmp":                "needle tmp\n",
		"a/important.tmp":        "needle important\n",
		"a/sub/q/r/x.txt":        "needle deep x\n",
		"a/sub/y.txt":            "Needle y\nsecond needle line\n\nthird\n",
		".hidden/h.txt":          "needle hidden\n",
		".dot.txt":               "needle dot\n",
		"src/main.go":            "package main\n// needle in go\nfunc main() {}\n",
		"src/util_test.go":       "package main\n// NEEDLE upper\n",
		"crlf.txt":               "needle crlf\r\nline two\r\n",
		"bad.txt":                "needle \xff\xfe bad utf8\n",
		"long.txt":               fmt.Sprintf("%0500d needle %0500d\n", 1, 2),
		"ctx.txt":                "l1\nl2\nl3\nneedle ctx\nl5\nl6\nneedle two\nl8\n",
		"[brackets].txt":         "needle [brackets]\n",
		"space name.txt":         "needle space\n",
		"a/b/c/d/e/f/g/deep.txt": "needle very deep\n",
		"odd/evil\u202etxt.sh":   "needle odd override\n", // names shown escaped
		"odd/latin1-\xe9.txt":    "needle odd latin1\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bin.dat"), []byte("needle\x00binary"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("top.txt", filepath.Join(dir, "link.txt")); err != nil {
		t.Fatal(err)
	}
	return dir
}

func runTool(t *testing.T, d *tool.Def, args map[string]any) json.RawMessage {
	t.Helper()
	return runEnvelope(t, d, args).Envelope.Data
}

// runEnvelope runs one tool, which must succeed, and returns its whole
// result, warnings included.
func runEnvelope(t *testing.T, d *tool.Def, args map[string]any) tool.Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	res := (&tool.Runner{Handles: func(context.Context, string, map[string]any, []byte) (string, error) { return "H_x", nil }}).
		Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Errorf("%s: %v", raw, err)
	}
	if res.Err != nil {
		t.Fatalf("%s: %s", raw, res.JSON)
	}
	return res
}

// TestEnginesAgree runs rg and the native walker on the same tree with the
// same arguments and compares their answers field by field.
func TestEnginesAgree(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := tree(t)
	s := setOver(t, dir)
	content, files := s.content(), s.files()
	f, tr := false, true
	zero, two := 0, 2
	contentCases := []map[string]any{
		{"pattern": "needle"},
		{"pattern": "needle", "ignore_case": f, "context_lines": zero},
		{"pattern": "Needle"}, // smart case: only "Needle y"
		{"pattern": "Needle", "ignore_case": tr},
		{"pattern": `\W+ NEEDLE`},
		{"pattern": "needle", "context_lines": two},
		{"pattern": "needle", "include_hidden": tr},
		{"pattern": "needle", "include_ignored": tr},
		{"pattern": "needle", "include_hidden": tr, "include_ignored": tr},
		{"pattern": "needle", "file_glob": "*.go"},
		{"pattern": "needle", "file_glob": "!*.txt"},
		{"pattern": "needle", "file_glob": "a/**"},
		{"pattern": "needle", "file_glob": "*.log"},
		{"pattern": "needle", "file_glob": "*.tmp", "include_ignored": tr},
		{"pattern": "^needle [a-z]+$"},
		{"pattern": `ne+dle\s\w+`},
		{"pattern": "[brackets]", "literal": tr},
		{"pattern": "l[0-9]$", "root": "."},
		{"pattern": "needle", "root": "a"},
		{"pattern": "needle", "max_results": 3},
		{"pattern": "", "file_glob": "ctx.txt", "context_lines": zero},
	}
	smartCaseHits := map[string]int{"Needle": 1, `\W+ NEEDLE`: 1}
	for _, c := range contentCases {
		t.Run(fmt.Sprint(c), func(t *testing.T) {
			c["engine"] = "rg"
			got := runTool(t, content, c)
			c["engine"] = "native"
			want := runTool(t, content, c)
			var g, w contentOut
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal(want, &w)
			g.Engine, w.Engine = "", ""
			if diff := cmp.Diff(g, w); diff != "" {
				t.Errorf("rg vs native (-rg +native):\n%s", diff)
			}
			t.Logf("%d hits", g.TotalHits)
			if g.TotalHits == 0 {
				t.Errorf("no hits at all: the case tests nothing")
			}
			// Smart case: an upper-case letter outside escapes makes the
			// match case-sensitive.
			if p, _ := c["pattern"].(string); len(c) == 2 && smartCaseHits[p] != 0 && g.TotalHits != smartCaseHits[p] {
				t.Errorf("%q: %d hits, want %d", p, g.TotalHits, smartCaseHits[p])
			}
		})
	}
	for _, c := range []map[string]any{
		{"pattern": "txt"}, {"pattern": "*.go"}, {"pattern": "TOP"}, {"pattern": "top", "case_sensitive": tr},
		{"pattern": "", "include_hidden": tr}, {"pattern": "", "include_ignored": tr}, {"pattern": "", "file_glob": "a/**"},
		{"pattern": "", "root": "a/sub"}, {"pattern": "", "max_results": 2},
	} {
		t.Run(fmt.Sprint("files ", c), func(t *testing.T) {
			c["engine"] = "rg"
			got := runTool(t, files, c)
			c["engine"] = "native"
			want := runTool(t, files, c)
			var g, w filesOut
			_ = json.Unmarshal(got, &g)
			_ = json.Unmarshal(want, &w)
			g.Engine, w.Engine = "", ""
			if diff := cmp.Diff(g, w); diff != "" {
				t.Errorf("rg vs native (-rg +native):\n%s", diff)
			}
			if g.TotalHits == 0 {
				t.Errorf("no hits at all")
			}
		})
	}
}

// TestEnginesAgreeAcrossMounts mounts a tmpfs and a bind mount of the
// tree's own directory (same device, its own mount id) below a search root:
// by default neither engine reports a file from inside them and both say
// which mount points they left out; with cross_mounts both find them.
func TestEnginesAgreeAcrossMounts(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	testutil.RequireRoot(t)
	dir := tree(t)
	for _, d := range []string{"m/tm", "m/bd", "m/plain"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "m/plain/p.txt"), []byte("needle plain\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.MountTmpfs(t, filepath.Join(dir, "m/tm"))
	if err := os.WriteFile(filepath.Join(dir, "m/tm/inside.txt"), []byte("needle in tmpfs\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testutil.BindMount(t, filepath.Join(dir, "src"), filepath.Join(dir, "m/bd"))
	s := setOver(t, dir)
	content, files := s.content(), s.files()
	for _, root := range []string{".", "m"} {
		for _, cross := range []bool{false, true} {
			name := fmt.Sprintf("root %s cross_mounts %v", root, cross)
			t.Run(name, func(t *testing.T) {
				paths := map[string][]string{}
				for _, eng := range []string{"rg", "native"} {
					args := map[string]any{"root": root, "pattern": "", "engine": eng, "cross_mounts": cross}
					res := runEnvelope(t, files, args)
					var fo filesOut
					_ = json.Unmarshal(res.Envelope.Data, &fo)
					for _, h := range fo.Hits {
						paths["files "+eng] = append(paths["files "+eng], h.Path)
					}
					warned := strings.Contains(strings.Join(res.Envelope.Warnings, "\n"), "tm")
					if warned == cross {
						t.Errorf("search_files %s: warnings %q", eng, res.Envelope.Warnings)
					}
					args["pattern"] = "needle"
					res = runEnvelope(t, content, args)
					var co contentOut
					_ = json.Unmarshal(res.Envelope.Data, &co)
					for _, h := range co.Hits {
						paths["content "+eng] = append(paths["content "+eng], h.Path)
					}
					warned = strings.Contains(strings.Join(res.Envelope.Warnings, "\n"), "tm")
					if warned == cross {
						t.Errorf("search_content %s: warnings %q", eng, res.Envelope.Warnings)
					}
				}
				for _, kind := range []string{"files", "content"} {
					rg, native := paths[kind+" rg"], paths[kind+" native"]
					if diff := cmp.Diff(rg, native); diff != "" {
						t.Errorf("%s: rg vs native (-rg +native):\n%s", kind, diff)
					}
					prefix := ""
					if root == "." {
						prefix = "m/"
					}
					got := map[string]bool{}
					for _, p := range native {
						got[p] = true
					}
					for p, want := range map[string]bool{"plain/p.txt": true, "tm/inside.txt": cross, "bd/main.go": cross} {
						if got[prefix+p] != want {
							t.Errorf("%s: %s found %v, want %v", kind, prefix+p, got[prefix+p], want)
						}
					}
				}
			})
		}
	}
}

// Both engines show names that would mislead or be lost raw (an override
// character, bytes that are not UTF-8) in the escaped form fsroot reads
// back.
func TestEnginesShowOddNamesEscaped(t *testing.T) {
	testutil.RequireBinary(t, "rg")
	dir := tree(t)
	s := setOver(t, dir)
	want := []string{`odd/evil\u202etxt.sh`, `odd/latin1-\xe9.txt`}
	for _, eng := range []string{"rg", "native"} {
		var files filesOut
		_ = json.Unmarshal(runTool(t, s.files(), map[string]any{"pattern": "*", "root": "odd", "engine": eng}), &files)
		var content contentOut
		_ = json.Unmarshal(runTool(t, s.content(), map[string]any{"pattern": "needle odd", "engine": eng}), &content)
		var gotFiles, gotHits []string
		for _, h := range files.Hits {
			gotFiles = append(gotFiles, "odd/"+h.Path)
		}
		for _, h := range content.Hits {
			gotHits = append(gotHits, h.Path)
		}
		if fmt.Sprint(gotFiles) != fmt.Sprint(want) || fmt.Sprint(gotHits) != fmt.Sprint(want) {
			t.Errorf("%s: search_files %q, search_content %q; want %q", eng, gotFiles, gotHits, want)
		}
	}
}
