// Package edit is the edit toolset of spec 004 section 3.3: fs_patch_block
// (an exact replacement) and fs_apply_diff (unified and git diffs of one or
// many files). Every change of every file is computed and checked in
// memory first; only then are files replaced: one file atomically, many as
// one journaled transaction (fsroot.Journal) that a failure or a crash
// part-way finishes or undoes whole. A file is never left half-changed, nor
// a diff half-applied.
package edit

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strings"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Deps are what the edit tools work through.
type Deps struct {
	Roots *fsroot.Set
	// Journal makes fs_apply_diff's files one transaction; it lives in the
	// state directory, where recovery at start-up finds it.
	Journal *fsroot.Journal
}

// Set is the edit toolset.
type Set struct {
	roots   *fsroot.Set
	journal *fsroot.Journal
}

// New builds the edit toolset.
func New(d *Deps) *Set { return &Set{roots: d.Roots, journal: d.Journal} }

// Toolset lists the edit tools.
func (s *Set) Toolset() tool.Toolset {
	return tool.Toolset{
		Name:           "edit",
		Description:    "Change files in place: exact block replacement and unified or git diffs, all or nothing.",
		DefaultEnabled: true,
		Tools:          []*tool.Def{s.patchBlock(), s.applyDiff()},
	}
}

// maxEditBytes bounds a file the edit tools load whole.
const maxEditBytes = 32 << 20

// maxTextLines bounds the lines of old_text, new_text and diff_text. Each
// line of a diff costs a few hundred bytes while it is parsed, placed and
// diffed again for the answer: a 4 MB diff of two million empty lines took
// 650 MB. 50,000 lines cost about 25 MB; a larger change is better made in
// several calls, a file at a time.
const maxTextLines = 50_000

// checkLines refuses a text argument of more than maxTextLines lines.
func checkLines(arg, text string) error {
	if n := strings.Count(text, "\n"); n > maxTextLines {
		return tool.Errorf(tool.InvalidArgument, "%s has %d lines, over the limit of %d", arg, n, maxTextLines).
			WithSuggestion("Split the change: several smaller calls, a file or a region at a time.")
	}
	return nil
}

// readFile reads a regular file whole, with its mode and sha256.
func readFile(l fsroot.Loc) (content []byte, mode uint32, sum string, err error) {
	f, st, err := l.OpenRegular()
	if err != nil {
		return nil, 0, "", err
	}
	defer f.Close()
	if st.Size() > maxEditBytes {
		return nil, 0, "", tool.Errorf(tool.OutputTooLarge, "%q is %d bytes; the edit tools change files up to %d bytes", tool.Clip(l.Given), st.Size(), maxEditBytes).
			WithSuggestion("Edit a large file with fs_write of a rewritten copy, or split the change.")
	}
	content, err = io.ReadAll(io.LimitReader(f, maxEditBytes+1))
	if err != nil {
		return nil, 0, "", tool.Wrap(tool.ExecutionFailed, err, "reading %q: %s", tool.Clip(l.Given), tool.Clip(err.Error()))
	}
	return content, uint32(st.Mode().Perm()), shaHex(content), nil
}

func shaHex(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}
