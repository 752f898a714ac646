package e2e

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

type flowView struct {
	Flow  string `json:"flow"`
	Steps []struct {
		Description string `json:"description"`
		Result      string `json:"result"`
		OK          bool   `json:"ok"`
	} `json:"steps"`
	Summary string `json:"summary"`
}

// explain_repo on this very repository gives a correct report.
func TestExplainRepoOnThisRepository(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(binary, "serve", "--state-dir", t.TempDir(), "--root", repo)
	cmd.Stderr = &testLog{t: t}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	tools := listTools(t, ctx, cs)
	var out struct {
		flowView
		Details struct {
			Path      string `json:"path"`
			Languages []struct {
				Language string `json:"language"`
				Files    int    `json:"files"`
				Lines    int    `json:"lines"`
			} `json:"languages"`
			BuildFiles  []string `json:"build_files"`
			TestFiles   int      `json:"test_files"`
			EntryPoints []string `json:"entry_points"`
			CI          []string `json:"ci"`
			Readme      string   `json:"readme"`
			Layout      []string `json:"layout"`
			Git         *struct {
				Branch  string   `json:"branch"`
				Commits []string `json:"recent_commits"`
			} `json:"git"`
		} `json:"details"`
	}
	mustEnvelope(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "explain_repo"}, &out)
	d := out.Details
	goFiles := 0
	_ = filepath.WalkDir(repo, func(p string, e fs.DirEntry, err error) error {
		if err == nil && e.IsDir() && (e.Name() == ".git" || e.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if err == nil && strings.HasSuffix(p, ".go") {
			goFiles++
		}
		return nil
	})
	if d.Path != repo || len(d.Languages) == 0 || d.Languages[0].Language != "Go" || d.Languages[0].Files != goFiles {
		t.Fatalf("languages %+v, want Go first with the %d .go files", d.Languages, goFiles)
	}
	for _, want := range []string{"Makefile", "go.mod"} {
		if !slices.Contains(d.BuildFiles, want) {
			t.Errorf("build files %v lack %s", d.BuildFiles, want)
		}
	}
	if !slices.Contains(d.EntryPoints, "cmd/hostmcp/main.go") || d.TestFiles < 20 || !slices.Contains(d.CI, ".ci/run") {
		t.Errorf("entry points %v, test files %d, ci %v", d.EntryPoints, d.TestFiles, d.CI)
	}
	if !strings.HasPrefix(d.Readme, "hostmcp. hostmcp is one static Go binary") {
		t.Errorf("readme summary %q", d.Readme)
	}
	for _, want := range []string{"cmd/", "internal/", "README.md", "go.mod"} {
		if !slices.Contains(d.Layout, want) {
			t.Errorf("layout %v lacks %s", d.Layout, want)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, ".git")); err == nil {
		branch, _ := exec.Command("git", "-C", repo, "rev-parse", "--abbrev-ref", "HEAD").Output()
		if d.Git == nil || d.Git.Branch != strings.TrimSpace(string(branch)) || len(d.Git.Commits) == 0 {
			t.Errorf("git %+v, want branch %q", d.Git, branch)
		}
	}
	if !strings.Contains(out.Summary, "mostly Go") {
		t.Errorf("summary %q", out.Summary)
	}
}

// organize_downloads on a generated folder of mixed files: a dry run moves
// nothing, apply sorts them, nothing is overwritten or lost, and nothing
// outside the roots is touched.
func TestOrganizeDownloads(t *testing.T) {
	ctx := testCtx(t)
	e := newEnv(t, "")
	dl := filepath.Join(e.root, "Downloads")
	outside := t.TempDir()
	files := map[string]string{
		"report.pdf": "pdf", "photo.JPG": "jpg", "song.mp3": "mp3", "backup.tar.gz": "tgz", "data.csv": "csv",
		"setup.deb": "deb", "script.py": "py", "notes.txt": "txt", "mystery.xyz": "?", ".hidden.pdf": "hidden",
		"clash.pdf": "new clash", "Documents/clash.pdf": "old clash", "sub/inner.pdf": "inner",
	}
	for name, body := range files {
		p := filepath.Join(dl, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(outside, "keep.pdf"), []byte("outside"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, outsideBefore := contents(t, dl), contents(t, outside)

	cs := e.connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	var dry flowView
	mustEnvelope(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "organize_downloads", "path": "Downloads"}, &dry)
	if got := contents(t, dl); !sameTree(got, before) {
		t.Fatalf("the dry run changed the folder: %v", got)
	}
	if !strings.HasPrefix(dry.Summary, "Dry run: 8 files would move") {
		t.Errorf("dry run summary %q", dry.Summary)
	}
	var done flowView
	mustEnvelope(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "organize_downloads", "path": "Downloads", "apply": true}, &done)
	after := contents(t, dl)
	want := map[string]string{
		"Documents/report.pdf": "pdf", "Images/photo.JPG": "jpg", "Audio/song.mp3": "mp3", "Archives/backup.tar.gz": "tgz",
		"Spreadsheets/data.csv": "csv", "Installers/setup.deb": "deb", "Code/script.py": "py", "Documents/notes.txt": "txt",
		"mystery.xyz": "?", ".hidden.pdf": "hidden", "clash.pdf": "new clash", "Documents/clash.pdf": "old clash", "sub/inner.pdf": "inner",
	}
	for name, body := range want {
		if after[name] != sha(body) {
			t.Errorf("%s: missing or changed after apply", name)
		}
	}
	if !sameContents(after, before) {
		t.Errorf("files were lost or changed: before %v, after %v", before, after)
	}
	if !strings.Contains(done.Summary, "8 files moved") || !strings.Contains(done.Summary, "1 skipped") {
		t.Errorf("apply summary %q", done.Summary)
	}
	if got := contents(t, outside); !sameTree(got, outsideBefore) {
		t.Errorf("outside the roots changed: %v", got)
	}
	env, _ := call(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "organize_downloads", "path": outside, "apply": true})
	if env.Success {
		t.Fatal("a folder outside the roots was organized")
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// contents maps every regular file under dir to its sha256.
func contents(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[rel] = sha(string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func sameTree(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// sameContents compares the multisets of file contents, wherever they are.
func sameContents(a, b map[string]string) bool {
	va, vb := values(a), values(b)
	return slices.Equal(va, vb)
}

func values(m map[string]string) []string {
	var v []string
	for _, x := range m {
		v = append(v, x)
	}
	sort.Strings(v)
	return v
}

// system_health chains perf_info, perf_snapshot, perf_use_check and
// sys_services into one
// report; a step that cannot run here (no systemd) says so and the flow goes on.
func TestSystemHealthFlow(t *testing.T) {
	t.Parallel()
	ctx := testCtx(t)
	cs := newEnv(t, "").connectStdio(t, ctx)
	tools := listTools(t, ctx, cs)
	var out struct {
		flowView
		Details struct {
			Status  string `json:"status"`
			Verdict string `json:"verdict"`
		} `json:"details"`
	}
	mustEnvelope(t, ctx, cs, tools, "mcp_run_onboarding", map[string]any{"flow_name": "system_health"}, &out)
	if len(out.Steps) != 4 || !out.Steps[0].OK || !out.Steps[1].OK || !out.Steps[2].OK ||
		!strings.HasPrefix(out.Steps[1].Description, "perf_snapshot") || !strings.Contains(out.Steps[1].Result, "CPU ") ||
		!strings.HasPrefix(out.Steps[3].Description, "sys_services") {
		t.Fatalf("steps %+v", out.Steps)
	}
	if !slices.Contains([]string{"healthy", "warning", "critical"}, out.Details.Status) || out.Summary == "" || out.Details.Verdict == "" {
		t.Fatalf("report %+v", out)
	}
	if _, err := os.Stat("/run/systemd/system"); err != nil && (out.Steps[3].OK || !strings.Contains(out.Steps[3].Result, "CAPABILITY_MISSING")) {
		t.Errorf("without systemd the services step should say so: %+v", out.Steps[3])
	}
}

// With sys_logs enabled, system_health adds the last hour's errors. On a
// host without a journal they come from the allowlisted log file, which has
// no priorities: the error lines are found by their words.
func TestSystemHealthFlowWithLogs(t *testing.T) {
	t.Parallel()
	if hasJournal() {
		t.Skip("this host has a journal, which sys_logs reads before any log file") // not on CI's machines
	}
	syslog := filepath.Join(t.TempDir(), "syslog")
	at := time.Now().Add(-time.Minute).UTC().Format(time.RFC3339)
	old := time.Now().Add(-2 * time.Hour).UTC().Format(time.RFC3339)
	lines := old + " host app[7]: error from long ago\n" +
		at + " host app[7]: ERROR: disk full writing /data/x\n" +
		at + " host app[7]: all good\n"
	if err := os.WriteFile(syslog, []byte(lines), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	cs := newEnv(t, "[tools.sys_logs]\nenabled = true\n[process]\nlog_files = [\""+syslog+"\"]\n").connectStdio(t, ctx)
	var out struct {
		flowView
		Details struct {
			LogErrors    int      `json:"log_errors"`
			RecentErrors []string `json:"recent_errors"`
		} `json:"details"`
	}
	mustEnvelope(t, ctx, cs, listTools(t, ctx, cs), "mcp_run_onboarding", map[string]any{"flow_name": "system_health"}, &out)
	if len(out.Steps) != 5 || !out.Steps[4].OK || !strings.HasPrefix(out.Steps[4].Description, "sys_logs") {
		t.Fatalf("steps %+v", out.Steps)
	}
	if out.Details.LogErrors != 1 || len(out.Details.RecentErrors) != 1 || !strings.Contains(out.Details.RecentErrors[0], "app: ERROR: disk full") ||
		!strings.Contains(out.Summary, "1 log error(s) in the last hour") {
		t.Fatalf("log errors: %+v, summary %q", out.Details, out.Summary)
	}
}

func hasJournal() bool {
	for _, dir := range []string{"/var/log/journal", "/run/log/journal"} {
		if m, _ := filepath.Glob(filepath.Join(dir, "*", "*.journal")); len(m) > 0 {
			return true
		}
		if m, _ := filepath.Glob(filepath.Join(dir, "*.journal")); len(m) > 0 {
			return true
		}
	}
	return false
}
