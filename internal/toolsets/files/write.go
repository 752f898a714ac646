package files

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/patch"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type writeIn struct {
	Path           string `json:"path" jsonschema:"file to write"`
	Content        string `json:"content" jsonschema:"UTF-8 text"`
	Mode           string `json:"mode,omitempty" jsonschema:"rewrite replaces atomically" default:"rewrite"`
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"hex SHA-256 the file must have, from fs_read with sha256"`
	CreateParents  bool   `json:"create_parents,omitempty"`
	AllowHardlink  bool   `json:"allow_hardlink,omitempty" jsonschema:"replace only this name of a hard-linked file"`
	DryRun         bool   `json:"dry_run,omitempty"`
}

type writeOut struct {
	Path         string     `json:"path" jsonschema:"absolute path written"`
	BytesWritten int64      `json:"bytes_written" jsonschema:"bytes of content written (0 on a dry run)"`
	NewSHA256    string     `json:"new_sha256,omitempty" jsonschema:"SHA-256 of the whole file after the write"`
	Created      bool       `json:"created,omitempty" jsonschema:"true when the file did not exist"`
	FileMode     string     `json:"file_mode" jsonschema:"permission bits of the file, octal"`
	WouldWrite   int64      `json:"would_write,omitempty" jsonschema:"dry run: bytes of content it would write"`
	Diff         string     `json:"diff,omitempty" jsonschema:"dry run: unified diff of the file before and after, cut at 16 KiB"`
	Plan         *tool.Plan `json:"plan,omitempty"`
}

// writeFacts are what [confirm] conditions on fs_write test.
var writeFacts = []tool.Fact{
	{Name: "replaces", Kind: tool.FactBool, Doc: "it replaces the content of an existing file (mode rewrite)"},
	{Name: "append", Kind: tool.FactBool, Doc: "it appends to an existing file"},
	{Name: "new", Kind: tool.FactBool, Doc: "it creates the file"},
	{Name: "bytes", Kind: tool.FactNumber, Doc: "bytes of content it writes"},
}

var hexSHA = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{64}$`) })

// maxDiffBytes bounds a dry run's diff, and maxDiffInput the file it
// reads to make one.
const (
	maxDiffBytes = 16 << 10
	maxDiffInput = 4 << 20
)

func (s *Set) write() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_write",
		Kind:        tool.Destructive,
		Title:       "Write a text file",
		Description: "Replace a text file atomically (mode kept) or append; with expected_sha256, only if unchanged.",
		Facts:       writeFacts,
	}, s.handleWrite).WithEnum("mode", "rewrite", "append").WithMaxLength("content", tool.MaxTextLength)
}

func (s *Set) handleWrite(ctx context.Context, call *tool.Call, in writeIn) (writeOut, error) {
	if in.ExpectedSHA256 != "" && !hexSHA().MatchString(in.ExpectedSHA256) {
		return writeOut{}, tool.Errorf(tool.InvalidArgument, "expected_sha256 must be 64 lowercase hex digits, not %q", tool.Clip(in.ExpectedSHA256))
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return writeOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return writeOut{}, err
	}
	opts := fsroot.WriteOptions{
		Append:         in.Mode == "append",
		ExpectedSHA256: in.ExpectedSHA256,
		CreateParents:  in.CreateParents,
		AllowHardlink:  in.AllowHardlink,
	}
	wp, err := loc.PlanWrite(opts)
	if err != nil {
		return writeOut{}, err
	}
	p := writePreview(loc, wp, in, time.Now())
	if in.DryRun {
		out := writeOut{Path: loc.Abs(), Created: wp.Old == nil, FileMode: octal(wp.Mode), WouldWrite: int64(len(in.Content))}
		out.Diff = dryRunDiff(call, loc, wp, in)
		out.Plan, err = call.DryRun(p)
		return out, err
	}
	if err := call.Confirm(p); err != nil {
		return writeOut{}, err
	}
	res, err := loc.Write([]byte(in.Content), opts)
	if err != nil {
		return writeOut{}, err
	}
	return writeOut{
		Path: loc.Abs(), BytesWritten: res.BytesWritten, NewSHA256: res.NewSHA256,
		Created: res.Created, FileMode: octal(res.Mode),
	}, nil
}

// writePreview is what a write would do: its facts, a line for a person,
// and a state of the file's identity, size and times and of the content.
func writePreview(loc fsroot.Loc, wp fsroot.WritePlan, in writeIn, now time.Time) tool.Preview {
	name := fmt.Sprintf("%q", tool.Clip(loc.Abs()))
	size := figures.IEC(uint64(int64(len(in.Content))))
	appending := in.Mode == "append"
	old := "none"
	var summary string
	switch {
	case wp.Old == nil:
		summary = fmt.Sprintf("Create the file %s with %s", name, size)
		if len(wp.Parents) > 0 {
			shown := make([]string, len(wp.Parents))
			for i, d := range wp.Parents {
				shown[i] = tool.Clip(fsroot.ShowName(d))
			}
			summary += ", and the directories " + strings.Join(shown, ", ")
		}
	case appending:
		summary = fmt.Sprintf("Append %s to the file %s (%s, changed %s ago)", size, name, figures.IEC(uint64(wp.Old.Size())), figures.Span(now.Sub(wp.Old.ModTime())))
	default:
		summary = fmt.Sprintf("Replace the content of the file %s (%s, changed %s ago) with %s", name, figures.IEC(uint64(wp.Old.Size())), figures.Span(now.Sub(wp.Old.ModTime())), size)
	}
	if wp.Old != nil {
		old = fmt.Sprint(wp.Old.Size(), wp.Old.ModTime().UnixNano())
		if st, ok := wp.Old.Sys().(*syscall.Stat_t); ok {
			old += fmt.Sprint(st.Dev, st.Ino, st.Ctim.Nano())
		}
	}
	return tool.Preview{
		Summary: summary,
		Facts:   map[string]any{"replaces": wp.Old != nil && !appending, "append": wp.Old != nil && appending, "new": wp.Old == nil, "bytes": int64(len(in.Content))},
		State:   tool.StateOf(old, sha256.Sum256([]byte(in.Content)), appending, strings.Join(wp.Parents, "/")),
	}
}

// dryRunDiff is the unified diff of the file as the write would leave it,
// or "" with a warning when the file is too large for one.
func dryRunDiff(call *tool.Call, loc fsroot.Loc, wp fsroot.WritePlan, in writeIn) string {
	var before []byte
	if wp.Old != nil {
		if wp.Old.Size() > maxDiffInput {
			call.Warn("no diff: the file is %d bytes, over the %d a dry run reads", wp.Old.Size(), maxDiffInput)
			return ""
		}
		f, _, err := loc.OpenRegular()
		if err != nil {
			call.Warn("no diff: %v", err)
			return ""
		}
		defer f.Close()
		if before, err = io.ReadAll(io.LimitReader(f, maxDiffInput+1)); err != nil {
			call.Warn("no diff: reading the file: %v", err)
			return ""
		}
	}
	after := []byte(in.Content)
	if in.Mode == "append" {
		after = append(append([]byte{}, before...), after...)
	}
	d := patch.UnifiedDiff(fsroot.ShowName(loc.Rel), before, after)
	if len(d) > maxDiffBytes {
		call.Warn("the diff is %d bytes; it is cut at %d", len(d), maxDiffBytes)
		d = d[:maxDiffBytes] + "\n[... cut]"
	}
	return d
}
