package onboarding

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Bounds of one explain_repo walk.
const (
	maxRepoFiles     = 50000
	maxCountedBytes  = 4 << 20 // larger files count as files, not lines
	maxReadmeSummary = 600
)

// languages maps a file extension (or a whole name) to a language.
var languages = map[string]string{
	".go": "Go", ".py": "Python", ".js": "JavaScript", ".mjs": "JavaScript", ".cjs": "JavaScript", ".jsx": "JavaScript",
	".ts": "TypeScript", ".tsx": "TypeScript", ".rs": "Rust", ".c": "C", ".h": "C", ".cc": "C++", ".cpp": "C++",
	".hpp": "C++", ".java": "Java", ".kt": "Kotlin", ".rb": "Ruby", ".php": "PHP", ".cs": "C#", ".swift": "Swift",
	".sh": "Shell", ".bash": "Shell", ".sql": "SQL", ".md": "Markdown", ".toml": "TOML", ".yaml": "YAML",
	".yml": "YAML", ".json": "JSON", ".html": "HTML", ".css": "CSS", ".lua": "Lua", ".pl": "Perl", ".scala": "Scala",
	".tf": "Terraform", ".proto": "Protocol Buffers", ".bpf.c": "C (eBPF)", "Makefile": "Makefile", "Dockerfile": "Dockerfile",
}

// buildFiles are the names that say how a project builds.
var buildFiles = []string{"Makefile", "go.mod", "package.json", "Cargo.toml", "pyproject.toml", "setup.py", "setup.cfg",
	"requirements.txt", "CMakeLists.txt", "meson.build", "pom.xml", "build.gradle", "build.gradle.kts", "Gemfile",
	"composer.json", "Dockerfile", "docker-compose.yml", "compose.yaml", "BUILD", "BUILD.bazel", "WORKSPACE", "justfile", "Taskfile.yml"}

// skippedDirs are never walked: dependencies, build output, VCS data.
var skippedDirs = []string{".git", "node_modules", "vendor", "target", "dist", "build", "__pycache__", ".venv", "venv", ".tox", ".mypy_cache"}

type langStat struct {
	Language string `json:"language"`
	Files    int    `json:"files"`
	Lines    int    `json:"lines"`
}

type gitInfo struct {
	Branch  string   `json:"branch"`
	Commits []string `json:"recent_commits" jsonschema:"newest first: short hash, date, subject"`
}

type repoDetails struct {
	Path          string     `json:"path"`
	Files         int        `json:"files"`
	Languages     []langStat `json:"languages" jsonschema:"by lines, most first"`
	BuildFiles    []string   `json:"build_files"`
	TestFiles     int        `json:"test_files"`
	TestDirs      []string   `json:"test_dirs"`
	EntryPoints   []string   `json:"entry_points"`
	CI            []string   `json:"ci,omitempty"`
	Readme        string     `json:"readme,omitempty" jsonschema:"the README's title and first paragraph"`
	Layout        []string   `json:"layout" jsonschema:"top-level entries, directories with a trailing /"`
	Git           *gitInfo   `json:"git,omitempty"`
	WalkTruncated bool       `json:"walk_truncated,omitempty"`
}

// explainRepo describes the repository at p.
func (s *Set) explainRepo(ctx context.Context, call *tool.Call, p string) (runOut, error) {
	roots, release, err := s.deps.Roots.ForCall(ctx, call)
	if err != nil {
		return runOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(cmp.Or(p, "."))
	if err != nil {
		return runOut{}, err
	}
	d, err := loc.OpenDir()
	if err != nil {
		return runOut{}, err
	}
	d.Close()
	fsys := loc.Root.OS().FS()
	det := repoDetails{Path: loc.Abs(), BuildFiles: []string{}, TestDirs: []string{}, EntryPoints: []string{}, Layout: []string{}}
	out := runOut{Flow: "explain_repo"}

	langs := map[string]*langStat{}
	err = fs.WalkDir(fsys, loc.Rel, func(full string, e fs.DirEntry, err error) error {
		if err != nil {
			return nil // an unreadable corner does not stop the report
		}
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		rel := relTo(loc.Rel, full)
		name := e.Name()
		if e.IsDir() {
			if rel != "." && (slices.Contains(skippedDirs, name) || strings.HasPrefix(name, ".") && name != ".github" && name != ".ci") {
				return fs.SkipDir
			}
			if name == "test" || name == "tests" || name == "testdata" || name == "__tests__" || name == "spec" {
				det.TestDirs = append(det.TestDirs, rel+"/")
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		if det.Files++; det.Files > maxRepoFiles {
			det.WalkTruncated = true
			return fs.SkipAll
		}
		classify(&det, rel, name)
		lang := language(name)
		if lang == "" {
			return nil
		}
		ls := langs[lang]
		if ls == nil {
			ls = &langStat{Language: lang}
			langs[lang] = ls
		}
		ls.Files++
		ls.Lines += countLines(fsys, full)
		return nil
	})
	if err != nil && ctx.Err() != nil {
		return runOut{}, err
	}
	for _, l := range langs {
		det.Languages = append(det.Languages, *l)
	}
	slices.SortFunc(det.Languages, func(a, b langStat) int {
		return cmp.Or(cmp.Compare(b.Lines, a.Lines), cmp.Compare(a.Language, b.Language))
	})
	det.Layout = layout(fsys, loc.Rel)
	det.Readme = readme(fsys, loc.Rel)
	out.Steps = append(out.Steps, step{"Walked the tree (skipping .git, dependencies and build output)", fmt.Sprintf("%d files, %d languages", det.Files, len(det.Languages)), true})
	out.Steps = append(out.Steps, step{"Found build, test and entry-point files", fmt.Sprintf("%d build files, %d test files, %d entry points", len(det.BuildFiles), det.TestFiles, len(det.EntryPoints)), true})
	if det.Readme != "" {
		out.Steps = append(out.Steps, step{"Read the README", firstLine(det.Readme), true})
	} else {
		out.Steps = append(out.Steps, step{"Read the README", "no README at the top", false})
	}
	det.Git = s.git(ctx, loc.Abs(), &out)
	out.Summary = repoSummary(det)
	out.Details = det
	return out, nil
}

func relTo(base, full string) string {
	if base == "." {
		return full
	}
	if full == base {
		return "."
	}
	return strings.TrimPrefix(full, base+"/")
}

func language(name string) string {
	if l, ok := languages[name]; ok {
		return l
	}
	if strings.HasSuffix(name, ".bpf.c") {
		return languages[".bpf.c"]
	}
	return languages[path.Ext(name)]
}

// classify notes build files, tests, entry points and CI.
func classify(det *repoDetails, rel, name string) {
	dir := path.Dir(rel)
	if slices.Contains(buildFiles, name) && (dir == "." || strings.Count(rel, "/") <= 1) {
		det.BuildFiles = append(det.BuildFiles, rel)
	}
	if strings.HasSuffix(name, "_test.go") || strings.HasPrefix(name, "test_") && strings.HasSuffix(name, ".py") ||
		strings.Contains(name, ".test.") || strings.Contains(name, ".spec.") || strings.HasSuffix(name, "_spec.rb") {
		det.TestFiles++
	}
	switch {
	case name == "main.go" && (dir == "." || strings.HasPrefix(dir, "cmd/")),
		name == "__main__.py", name == "main.py" && strings.Count(rel, "/") <= 1, name == "manage.py" && dir == ".",
		(name == "main.rs" || name == "lib.rs") && (dir == "src" || strings.HasPrefix(dir, "src/bin")),
		(name == "index.js" || name == "index.ts" || name == "server.js") && (dir == "." || dir == "src"),
		name == "main.c" || name == "Main.java":
		det.EntryPoints = append(det.EntryPoints, rel)
	}
	if strings.HasPrefix(rel, ".github/workflows/") || name == ".gitlab-ci.yml" || strings.HasPrefix(rel, ".ci/") || name == "Jenkinsfile" {
		det.CI = append(det.CI, rel)
	}
}

// countLines counts a text file's lines; binary and huge files count zero.
func countLines(fsys fs.FS, name string) int {
	f, err := fsys.Open(name)
	if err != nil {
		return 0
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxCountedBytes {
		return 0
	}
	b, err := io.ReadAll(io.LimitReader(f, maxCountedBytes))
	if err != nil || bytes.IndexByte(b[:min(len(b), 8000)], 0) >= 0 {
		return 0
	}
	n := bytes.Count(b, []byte{'\n'})
	if len(b) > 0 && b[len(b)-1] != '\n' {
		n++
	}
	return n
}

func layout(fsys fs.FS, dir string) []string {
	ents, err := fs.ReadDir(fsys, dir)
	out := []string{}
	if err != nil {
		return out
	}
	for _, e := range ents {
		n := e.Name()
		if e.IsDir() {
			n += "/"
		}
		out = append(out, n)
	}
	return out
}

// readme returns the README's title and first paragraph.
func readme(fsys fs.FS, dir string) string {
	for _, n := range []string{"README.md", "README", "README.rst", "README.txt", "readme.md"} {
		f, err := fsys.Open(path.Join(dir, n))
		if err != nil {
			continue
		}
		defer f.Close()
		var parts []string
		sc := bufio.NewScanner(io.LimitReader(f, 64<<10))
		inPara := false
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			if line == "" {
				if inPara {
					break
				}
				continue
			}
			if strings.HasPrefix(line, "#") && len(parts) == 0 {
				parts = append(parts, strings.TrimSpace(strings.TrimLeft(line, "#"))+".")
				continue
			}
			if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "```") || strings.HasPrefix(line, "[!") || strings.HasPrefix(line, "<") {
				if inPara {
					break
				}
				continue
			}
			inPara = true
			parts = append(parts, line)
		}
		s := strings.Join(parts, " ")
		if len(s) > maxReadmeSummary {
			s = s[:maxReadmeSummary] + "…"
		}
		return s
	}
	return ""
}

func firstLine(s string) string {
	if i := strings.IndexAny(s, ".\n"); i > 0 && i < 120 {
		return s[:i+1]
	}
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// git reads the branch and recent commits, when dir is in a git work tree.
// Only read-only plumbing runs, with the repository's fsmonitor and pager
// turned off: a repository's own config must not make us run its commands.
func (s *Set) git(ctx context.Context, dir string, out *runOut) *gitInfo {
	const desc = "Read git's branch and recent commits"
	if s.deps.Exec == nil || !s.deps.Exec.Available("git") {
		out.Steps = append(out.Steps, step{desc, "git is not installed", false})
		return nil
	}
	run := func(args ...string) (string, bool) {
		argv := append([]string{"-c", "core.fsmonitor=false", "-c", "core.pager=cat", "-C", dir}, args...)
		res, err := s.deps.Exec.Run(ctx, execx.Cmd{Name: "git", Args: argv, Timeout: 10 * time.Second, MaxOutput: 64 << 10,
			Env: []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_TERMINAL_PROMPT=0"}})
		if err != nil || res.ExitCode != 0 {
			return strings.TrimSpace(string(res.Stderr)), false
		}
		return strings.TrimSpace(string(res.Stdout)), true
	}
	if _, ok := run("rev-parse", "--is-inside-work-tree"); !ok {
		out.Steps = append(out.Steps, step{desc, "not a git repository", false})
		return nil
	}
	g := &gitInfo{Commits: []string{}}
	g.Branch, _ = run("rev-parse", "--abbrev-ref", "HEAD")
	if log, ok := run("log", "-n", "5", "--no-color", "--format=%h %ad %s", "--date=short"); ok && log != "" {
		g.Commits = strings.Split(log, "\n")
	}
	out.Steps = append(out.Steps, step{desc, fmt.Sprintf("branch %s, %d recent commits", g.Branch, len(g.Commits)), true})
	return g
}

func repoSummary(d repoDetails) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %d files", path.Base(d.Path), d.Files)
	if len(d.Languages) > 0 {
		var top []string
		for i, l := range d.Languages {
			if i == 3 {
				break
			}
			top = append(top, fmt.Sprintf("%s (%d lines)", l.Language, l.Lines))
		}
		fmt.Fprintf(&b, ", mostly %s", strings.Join(top, ", "))
	}
	b.WriteString(".")
	if len(d.BuildFiles) > 0 {
		fmt.Fprintf(&b, " Builds with %s.", strings.Join(d.BuildFiles[:min(3, len(d.BuildFiles))], ", "))
	}
	if d.TestFiles > 0 {
		fmt.Fprintf(&b, " %d test files.", d.TestFiles)
	}
	if len(d.EntryPoints) > 0 {
		fmt.Fprintf(&b, " Entry points: %s.", strings.Join(d.EntryPoints[:min(3, len(d.EntryPoints))], ", "))
	}
	if d.Git != nil {
		fmt.Fprintf(&b, " Git branch %s.", d.Git.Branch)
	}
	return b.String()
}
