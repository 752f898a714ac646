package edit

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/patch"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type diffIn struct {
	DiffText string `json:"diff_text" jsonschema:"diff -u or git diff"`
	DryRun   bool   `json:"dry_run,omitempty"`
	Backup   bool   `json:"backup,omitempty" jsonschema:"keep old versions as NAME.orig"`
}

// fileResult is what happened, or would happen, to one file.
type fileResult struct {
	Path      string            `json:"path"`
	Action    string            `json:"action" jsonschema:"modified, created, deleted or renamed"`
	From      string            `json:"from,omitempty" jsonschema:"the old path of a renamed file"`
	Hunks     []patch.Placement `json:"hunks"`
	NewSHA256 string            `json:"new_sha256,omitempty"`
	Backup    string            `json:"backup,omitempty"`
	Diff      string            `json:"diff,omitempty" jsonschema:"dry run: unified diff of the file before and after, the diffs of all files cut at 64 KiB together"`
}

type diffOut struct {
	DryRun        bool         `json:"dry_run"`
	FilesModified int          `json:"files_modified" jsonschema:"files changed, created, deleted or renamed (0 on a dry run)"`
	HunksApplied  int          `json:"hunks_applied"`
	Files         []fileResult `json:"files"`
	Plan          *tool.Plan   `json:"plan,omitempty"`
}

// diffFacts are what [confirm] conditions on fs_apply_diff test.
var diffFacts = []tool.Fact{
	{Name: "files", Kind: tool.FactNumber, Doc: "files it changes, creates, deletes or renames"},
	{Name: "deletes", Kind: tool.FactNumber, Doc: "files it deletes"},
	{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of the files it writes, new content"},
}

// maxDryRunDiffs bounds the diffs a dry run of fs_apply_diff shows.
const maxDryRunDiffs = 64 << 10

func (s *Set) applyDiff() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_apply_diff",
		Kind:        tool.Mutating,
		Title:       "Apply a diff",
		Description: "Apply a unified or git diff to one or many files, all or nothing, hunks placed tolerantly.",
		Timeout:     60 * time.Second,
		Facts:       diffFacts,
	}, s.handleDiff).WithMaxLength("diff_text", tool.MaxTextLength)
}

// change is one file's planned change.
type change struct {
	res      fileResult
	oldLoc   *fsroot.Loc // the file changed, removed or renamed from
	newLoc   *fsroot.Loc // the file written
	old      []byte      // its content before, to check and to put back
	oldSum   string
	oldMode  fs.FileMode
	newBytes []byte
}

func (s *Set) handleDiff(ctx context.Context, call *tool.Call, in diffIn) (diffOut, error) {
	if err := checkLines("diff_text", in.DiffText); err != nil {
		return diffOut{}, err
	}
	diffs, err := patch.Parse(in.DiffText)
	if err != nil {
		return diffOut{}, tool.Wrap(tool.InvalidArgument, err, "diff_text is not a diff hostmcp can read: %s", tool.Clip(err.Error())).
			WithSuggestion("Send unified diff text: '--- a/path' and '+++ b/path' lines, then '@@ -l,n +l,n @@' hunks.")
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return diffOut{}, err
	}
	defer release()
	var plan []*change
	var problems []string
	for _, d := range diffs {
		c, err := planFile(roots, d, !in.DryRun)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		plan = append(plan, c)
	}
	if len(problems) > 0 {
		return diffOut{}, tool.Errorf(tool.PatchRejected, "nothing was written; %d of %d files cannot be patched:\n%s", len(problems), len(diffs), firstProblems(problems)).
			WithSuggestion("Read the files as they are now (fs_read) and regenerate the rejected hunks with more context, or use fs_patch_block for a small change.")
	}
	out := diffOut{DryRun: in.DryRun, Files: []fileResult{}}
	for _, c := range plan {
		out.HunksApplied += len(c.res.Hunks)
		for _, h := range c.res.Hunks {
			if h.Whitespace {
				call.Warn("%s hunk %d was placed by ignoring white space (at line %d)", tool.Clip(c.res.Path), h.Hunk, h.Line)
			} else if h.Fuzz > 0 {
				call.Warn("%s hunk %d was placed with fuzz %d (context lines ignored) at line %d", tool.Clip(c.res.Path), h.Hunk, h.Fuzz, h.Line)
			}
		}
	}
	p := diffPreview(plan)
	if in.DryRun {
		budget := maxDryRunDiffs
		for _, c := range plan {
			r := c.res
			r.Diff = cut(patch.UnifiedDiff(c.res.Path, c.old, c.newBytes), max(budget, 0))
			budget -= len(r.Diff)
			out.Files = append(out.Files, r)
		}
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if s.journal == nil {
		return diffOut{}, tool.Errorf(tool.Internal, "fs_apply_diff has no journal to make its files one transaction; nothing was written").
			WithSuggestion("Apply the change with dry_run: true and fs_write, or ask the operator to report this.")
	}
	if err := call.Confirm(p); err != nil {
		return diffOut{}, err
	}
	if err := commit(s.journal, plan, in.Backup); err != nil {
		return diffOut{}, err
	}
	out.FilesModified = len(plan)
	for _, c := range plan {
		out.Files = append(out.Files, c.res)
	}
	return out, nil
}

// diffPreview is what applying plan would do: a line for a person naming
// the files by action, the facts, and a state of every file's content
// before and after (commit refuses a file changed since it was read; the
// state makes a person's yes hold for these contents only).
func diffPreview(plan []*change) tool.Preview {
	var byAction = map[string][]string{}
	var deletes int
	var bytes int64
	var state []any
	for _, c := range plan {
		byAction[c.res.Action] = append(byAction[c.res.Action], tool.Clip(c.res.Path))
		if c.res.Action == "deleted" {
			deletes++
		} else {
			bytes += int64(len(c.newBytes))
		}
		state = append(state, c.res.Path, c.res.From, c.res.Action, c.oldSum, shaHex(c.newBytes))
	}
	var parts []string
	for _, action := range []string{"modified", "created", "deleted", "renamed"} {
		names := byAction[action]
		if len(names) == 0 {
			continue
		}
		shown := names[:min(len(names), 3)]
		part := action + " " + strings.Join(shown, ", ")
		if len(names) > len(shown) {
			part += fmt.Sprintf(" and %d more", len(names)-len(shown))
		}
		parts = append(parts, part)
	}
	return tool.Preview{
		Summary: fmt.Sprintf("Apply a diff to %s: %s", figures.Counted(int64(len(plan)), "file", "files"), strings.Join(parts, "; ")),
		Facts:   map[string]any{"files": len(plan), "deletes": deletes, "bytes": bytes},
		State:   tool.StateOf(state...),
	}
}

// planFile works out one file's change in memory: paths inside the roots,
// current content, every hunk placed. write asks for the paths to be
// writable too.
func planFile(roots *fsroot.Set, d patch.FileDiff, write bool) (*change, error) {
	c := &change{}
	resolve := func(p string) (*fsroot.Loc, error) {
		if p == "" {
			return nil, nil
		}
		l, err := roots.Resolve(p)
		if err != nil {
			return nil, err
		}
		if write {
			if err := l.Writable(); err != nil {
				return nil, err
			}
		}
		return &l, nil
	}
	var err error
	if c.oldLoc, err = resolve(d.OldPath); err != nil {
		return nil, err
	}
	if c.newLoc, err = resolve(d.NewPath); err != nil {
		return nil, err
	}
	switch {
	case d.IsNew:
		c.res = fileResult{Path: d.NewPath, Action: "created"}
		if _, err := c.newLoc.Lstat(); err == nil {
			return nil, fmt.Errorf("%s: the diff creates it, but it already exists", tool.Clip(d.NewPath))
		}
	case d.IsDelete:
		c.res = fileResult{Path: d.OldPath, Action: "deleted"}
	case d.OldPath != d.NewPath:
		c.res = fileResult{Path: d.NewPath, From: d.OldPath, Action: "renamed"}
		if _, err := c.newLoc.Lstat(); err == nil {
			return nil, fmt.Errorf("%s: the diff renames %s to it, but it already exists", tool.Clip(d.NewPath), tool.Clip(d.OldPath))
		}
	default:
		c.res = fileResult{Path: d.NewPath, Action: "modified"}
	}
	if c.oldLoc != nil {
		content, mode, sum, err := readFile(*c.oldLoc)
		if err != nil {
			return nil, err
		}
		c.old, c.oldSum, c.oldMode = content, sum, fs.FileMode(mode)
	}
	lines, places, rejects := patch.Apply(patch.Split(c.old), d.Hunks)
	if len(rejects) > 0 {
		var r []string
		for _, x := range rejects[:min(len(rejects), shownProblems)] {
			r = append(r, fmt.Sprintf("%s hunk %d of %d: %s", tool.Clip(c.res.Path), x.Hunk, len(d.Hunks), x.Reason))
		}
		if len(rejects) > shownProblems {
			r = append(r, fmt.Sprintf("... and %d more hunks of %s", len(rejects)-shownProblems, tool.Clip(c.res.Path)))
		}
		return nil, fmt.Errorf("%s", strings.Join(r, "\n"))
	}
	c.res.Hunks = append([]patch.Placement{}, places...)
	c.newBytes = patch.Join(lines)
	if d.IsDelete && len(c.newBytes) > 0 {
		return nil, fmt.Errorf("%s: the diff deletes it, but %d bytes it does not mention would remain", tool.Clip(d.OldPath), len(c.newBytes))
	}
	return c, nil
}

// shownProblems is how many files, and hunks of a file, a rejection
// lists; a count says how many more there were.
const shownProblems = 10

func firstProblems(problems []string) string {
	if len(problems) <= shownProblems {
		return strings.Join(problems, "\n")
	}
	return strings.Join(problems[:shownProblems], "\n") + fmt.Sprintf("\n... and %d more files", len(problems)-shownProblems)
}
