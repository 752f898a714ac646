package patch

import (
	"fmt"
	"strings"

	"github.com/bluekeyes/go-gitdiff/gitdiff"
)

// FileDiff is one file of a diff. A path is "" where the diff says
// /dev/null: OldPath for a new file, NewPath for a deleted one.
type FileDiff struct {
	OldPath, NewPath string
	IsNew, IsDelete  bool
	IsRename         bool
	Hunks            []Hunk
}

// Parse reads a unified or git-style diff of one or many files. Paths come
// out relative as the diff wrote them, without git's a/ and b/ prefixes; a
// traditional diff's a/ or b/ prefix (diff -u a/x b/x, as `patch -p1`
// expects) is removed too.
func Parse(text string) ([]FileDiff, error) {
	files, _, err := gitdiff.Parse(strings.NewReader(text))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no file diff found: want unified diff headers (--- a/path, +++ b/path) followed by @@ hunks")
	}
	isGit := strings.HasPrefix(text, "diff --git ") || strings.Contains(text, "\ndiff --git ")
	out := make([]FileDiff, 0, len(files))
	for _, f := range files {
		if f.IsBinary {
			return nil, fmt.Errorf("%s: binary diffs are not supported", cmpName(f))
		}
		fd := FileDiff{OldPath: f.OldName, NewPath: f.NewName, IsNew: f.IsNew, IsDelete: f.IsDelete, IsRename: f.IsRename || f.IsCopy}
		if !isGit {
			fd.OldPath, fd.NewPath = stripPrefix(fd.OldPath), stripPrefix(fd.NewPath)
		}
		if fd.IsNew {
			fd.OldPath = ""
		}
		if fd.IsDelete {
			fd.NewPath = ""
		}
		for _, fr := range f.TextFragments {
			h := Hunk{OldStart: int(fr.OldPosition)}
			for _, l := range fr.Lines {
				text, eol := strings.TrimSuffix(l.Line, "\n"), ""
				if strings.HasSuffix(l.Line, "\n") {
					eol = "\n"
				}
				if strings.HasSuffix(text, "\r") {
					text, eol = strings.TrimSuffix(text, "\r"), "\r\n"
				}
				op := Context
				switch l.Op {
				case gitdiff.OpDelete:
					op = Delete
				case gitdiff.OpAdd:
					op = Add
				}
				h.Lines = append(h.Lines, DiffLine{Op: op, Line: Line{Text: text, EOL: eol}})
			}
			fd.Hunks = append(fd.Hunks, h)
		}
		out = append(out, fd)
	}
	return out, nil
}

func cmpName(f *gitdiff.File) string {
	if f.NewName != "" {
		return f.NewName
	}
	return f.OldName
}

func stripPrefix(p string) string {
	for _, pre := range []string{"a/", "b/"} {
		if rest, ok := strings.CutPrefix(p, pre); ok && rest != "" {
			return rest
		}
	}
	return p
}
