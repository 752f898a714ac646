package edit

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/patch"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type blockIn struct {
	Path                 string `json:"path" jsonschema:"file to change"`
	OldText              string `json:"old_text" jsonschema:"exact text, white space included"`
	NewText              string `json:"new_text" jsonschema:"replacement"`
	ExpectedReplacements *int   `json:"expected_replacements,omitempty" jsonschema:"occurrences required, all replaced" default:"1"`
	DryRun               bool   `json:"dry_run,omitempty"`
	ExpectedSHA256       string `json:"expected_sha256,omitempty" jsonschema:"hex SHA-256 the file must have now"`
}

type blockOut struct {
	Path             string     `json:"path"`
	ReplacementsMade int        `json:"replacements_made" jsonschema:"0 on a dry run"`
	Occurrences      int        `json:"occurrences"`
	FirstLine        int        `json:"first_line" jsonschema:"1-based line of the first occurrence"`
	Before           string     `json:"before" jsonschema:"a few lines around the first occurrence, before"`
	After            string     `json:"after" jsonschema:"the same lines after"`
	Diff             string     `json:"diff" jsonschema:"unified diff of the change, cut at 16 KiB"`
	DryRun           bool       `json:"dry_run"`
	NewSHA256        string     `json:"new_sha256,omitempty"`
	Plan             *tool.Plan `json:"plan,omitempty"`
}

// blockFacts are what [confirm] conditions on fs_patch_block test.
var blockFacts = []tool.Fact{
	{Name: "replacements", Kind: tool.FactNumber, Doc: "occurrences of old_text it replaces"},
	{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of the file after the change"},
}

// maxDiffBytes bounds a diff in an answer.
const maxDiffBytes = 16 << 10

func (s *Set) patchBlock() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_patch_block",
		Kind:        tool.Mutating,
		Title:       "Replace a block of text",
		Description: "Replace exact old_text with new_text atomically if it occurs expected_replacements times; a miss shows the nearest text.",
		Timeout:     30 * time.Second,
		Facts:       blockFacts,
	}, s.handleBlock).WithRange("expected_replacements", 1, 10000).
		WithMaxLength("old_text", tool.MaxTextLength).WithMaxLength("new_text", tool.MaxTextLength)
}

func (s *Set) handleBlock(ctx context.Context, call *tool.Call, in blockIn) (blockOut, error) {
	if in.OldText == "" {
		return blockOut{}, tool.Errorf(tool.InvalidArgument, "old_text is empty").
			WithSuggestion("Give the exact text to replace; to add text, include a neighbouring line in old_text and new_text.")
	}
	for arg, text := range map[string]string{"old_text": in.OldText, "new_text": in.NewText} {
		if err := checkLines(arg, text); err != nil {
			return blockOut{}, err
		}
	}
	want := 1
	if in.ExpectedReplacements != nil {
		want = *in.ExpectedReplacements
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return blockOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return blockOut{}, err
	}
	if !in.DryRun {
		if err := loc.Writable(); err != nil {
			return blockOut{}, err
		}
	}
	content, _, sum, err := readFile(loc)
	if err != nil {
		return blockOut{}, err
	}
	if in.ExpectedSHA256 != "" && !strings.EqualFold(in.ExpectedSHA256, sum) {
		return blockOut{}, tool.Errorf(tool.ShaMismatch, "%q has sha256 %s, not the expected %s; nothing was written", tool.Clip(in.Path), sum, tool.Clip(in.ExpectedSHA256)).
			WithSuggestion("Read the file again (fs_read) and redo the change on its current content.")
	}
	b := patch.ReplaceBlock(content, in.OldText, in.NewText, want)
	if b.Count == 0 {
		return blockOut{}, notFound(in, content)
	}
	if b.Count != want {
		return blockOut{}, tool.Errorf(tool.PatchCountMismatch, "old_text occurs %d times in %q, expected %d; nothing was written", b.Count, tool.Clip(in.Path), want).
			WithSuggestion("Add surrounding lines to old_text so it is unique, or set expected_replacements to the count to replace them all.")
	}
	out := blockOut{Path: in.Path, Occurrences: b.Count, FirstLine: b.FirstLine, DryRun: in.DryRun, Diff: cut(patch.UnifiedDiff(in.Path, content, b.Content), maxDiffBytes)}
	out.Before, out.After = snippet(content, b.FirstLine, b.Old), snippet(b.Content, b.FirstLine, b.New)
	p := tool.Preview{
		Summary: fmt.Sprintf("Replace %s of old_text (%s) in %q, from line %d, with %s",
			figures.Counted(int64(b.Count), "occurrence", "occurrences"), lineCount(in.OldText),
			tool.Clip(loc.Abs()), b.FirstLine, lineCount(in.NewText)),
		Facts: map[string]any{"replacements": b.Count, "bytes": int64(len(b.Content))},
		State: tool.StateOf(sum, shaHex(b.Content)),
	}
	if in.DryRun {
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return blockOut{}, err
	}
	res, err := loc.Write(b.Content, fsroot.WriteOptions{ExpectedSHA256: sum})
	if err != nil {
		return blockOut{}, err
	}
	out.ReplacementsMade, out.NewSHA256 = b.Count, res.NewSHA256
	return out, nil
}

// notFound is the miss, with the closest near-miss when there is one.
func notFound(in blockIn, content []byte) error {
	nm, ok := patch.FindNearMiss(content, in.OldText)
	if !ok {
		return tool.Errorf(tool.PatchRejected, "old_text was not found in %q, nor anything like it; nothing was written", tool.Clip(in.Path)).
			WithSuggestion("Read the file (fs_read or search_content) and copy the text to replace exactly.")
	}
	return tool.Errorf(tool.PatchRejected, "old_text was not found in %q; the closest text is lines %d-%d (similarity %.2f), which differs like this:\n%s",
		tool.Clip(in.Path), nm.StartLine, nm.EndLine, nm.Similarity, cut(nm.Diff, 4<<10)).
		WithSuggestion("Copy lines %d-%d exactly as the file has them (white space and indentation included) into old_text, then retry.", nm.StartLine, nm.EndLine)
}

// snippet is the replaced text with up to two lines of context each side.
func snippet(content []byte, firstLine int, middle string) string {
	lines := patch.Split(content)
	from := max(firstLine-1-2, 0)
	to := min(firstLine-1+strings.Count(middle, "\n")+3, len(lines))
	return cut(string(patch.Join(lines[from:to])), 4<<10)
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n[... cut]"
}

// lineCount writes how many lines text has, a last one without a newline
// included: "1 line", "3 lines".
func lineCount(text string) string {
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return figures.Counted(int64(n), "line", "lines")
}
