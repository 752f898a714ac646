package files

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"strings"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// handleMaxBytes bounds the file content fs_read keeps as a handle; a
// larger file is paged with offset_lines instead.
const handleMaxBytes = 16 << 20

type readIn struct {
	Path        string `json:"path" jsonschema:"file to read"`
	OffsetLines int    `json:"offset_lines,omitempty" jsonschema:"0-based; negative counts from the end"`
	MaxLines    int    `json:"max_lines,omitempty" jsonschema:"fewer if over the output cap" default:"200"`
	SHA256      bool   `json:"sha256,omitempty"` // for fs_write's expected_sha256, which says so
}

type readOut struct {
	Content string   `json:"content" jsonschema:"the lines, each with its line terminator"`
	Handle  string   `json:"handle,omitempty" jsonschema:"when truncated and the file is at most 16 MiB: its whole content, for handle_read by line"`
	Meta    readMeta `json:"meta"`
}

// readMeta says what the content is. A whole file's meta is its line count
// alone, so that a 200-line file costs little more than its bytes and
// JSON's escaping of them: its path is the one the caller gave, resolved as
// every later call resolves it, and its size is the content's. A window
// adds the path and size, and where it is. The hash is given when asked
// for: it is 80 bytes of every answer (1.4 % of a 200-line Go file) that
// only a write guarded by expected_sha256 uses.
type readMeta struct {
	Path            string `json:"path,omitempty" jsonschema:"absolute path read; absent when content is the whole file"`
	SizeBytes       int64  `json:"size_bytes,omitempty" jsonschema:"absent when content is the whole file"`
	TotalLines      int    `json:"total_lines"`
	Estimated       bool   `json:"total_lines_estimated,omitempty" jsonschema:"true for files over 32 MiB: total_lines (and start_line of a tail) extrapolated from the lines read"`
	StartLine       int    `json:"start_line,omitempty" jsonschema:"0-based number of the first line in content; absent when 0"`
	ReturnedLines   int    `json:"returned_lines,omitempty" jsonschema:"lines in content; absent when content is the whole file"`
	Truncated       bool   `json:"truncated,omitempty" jsonschema:"true when the file has lines outside this window"`
	NextOffsetLines int    `json:"next_offset_lines,omitempty" jsonschema:"offset_lines to read the next window, when there is one"`
	SHA256          string `json:"sha256,omitempty" jsonschema:"of the whole file, when asked for (files up to 16 MiB)"`
	HardLinks       uint64 `json:"hard_links,omitempty" jsonschema:"how many names the file has, when more than one: fs_write then needs allow_hardlink and replaces only this name"`
}

func (s *Set) read() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_read",
		Kind:        tool.ReadOnly,
		Title:       "Read a text file",
		Description: "Read lines of a text file; a large file also comes as a handle; next_offset_lines goes on.",
	}, s.handleRead).WithRange("max_lines", 0, 2000)
}

func (s *Set) handleRead(ctx context.Context, call *tool.Call, in readIn) (readOut, error) {
	if in.MaxLines == 0 {
		in.MaxLines = 200
	}
	if in.MaxLines < 1 || in.MaxLines > 2000 {
		return readOut{}, tool.Errorf(tool.InvalidArgument, "max_lines must be 1 to 2000, not %d", in.MaxLines)
	}
	roots, release, err := s.roots.ForCall(ctx, call)
	if err != nil {
		return readOut{}, err
	}
	defer release()
	loc, err := roots.Resolve(in.Path)
	if err != nil {
		return readOut{}, err
	}
	f, st, err := loc.OpenRegular()
	if err != nil {
		return readOut{}, err
	}
	defer f.Close()
	size := st.Size()
	var ra interface {
		io.ReaderAt
	} = f
	var whole []byte
	if size <= handleMaxBytes {
		whole = make([]byte, size)
		if _, err := io.ReadFull(f, whole); err != nil {
			return readOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading %q: %s", tool.Clip(in.Path), tool.Clip(err.Error()))
		}
		ra = bytes.NewReader(whole)
	}
	if err := checkText(ra, size, in.Path); err != nil {
		return readOut{}, err
	}
	budget := min(contentBudget, contentRoom(call, loc.Abs(), size))
	var w window
	if whole == nil && size <= exactCountSize {
		// Counted to the end anyway: the count builds an index that the
		// next window of the same file starts from.
		w, err = s.lines.window(f, st, in.OffsetLines, in.MaxLines, budget)
	} else {
		w, err = readWindow(ra, size, in.OffsetLines, in.MaxLines, budget)
	}
	if err != nil {
		return readOut{}, tool.Wrap(tool.ExecutionFailed, err, "reading %q: %s", tool.Clip(in.Path), tool.Clip(err.Error()))
	}
	out := readOut{
		Content: strings.Join(w.Lines, ""),
		Meta:    readMeta{TotalLines: w.Total, Estimated: w.Estimated, StartLine: w.Start},
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && sys.Nlink > 1 {
		out.Meta.HardLinks = uint64(sys.Nlink)
	}
	end := w.Start + len(w.Lines)
	out.Meta.Truncated = w.Start > 0 || end < w.Total
	if out.Meta.Truncated || w.Estimated {
		out.Meta.ReturnedLines = len(w.Lines)
		out.Meta.Path, out.Meta.SizeBytes = loc.Abs(), size
	}
	if end < w.Total {
		out.Meta.NextOffsetLines = end
	}
	if whole != nil {
		if in.SHA256 {
			sum := sha256.Sum256(whole)
			out.Meta.SHA256 = hex.EncodeToString(sum[:])
		}
		if out.Meta.Truncated {
			id, err := call.PutHandle(context.Background(), "file_content", map[string]any{
				"kind": "file_content", "path": loc.Abs(), "root": loc.Root.Path,
			}, whole)
			if err != nil {
				call.Warn("the file could not be kept as a handle (%v); page it with offset_lines", err)
			}
			out.Handle = id
		}
	} else if in.SHA256 {
		call.Warn("the file is %d bytes, over the 16 MiB hashed: no sha256", size)
	}
	if whole == nil && out.Meta.Truncated {
		call.Warn("the file is %d bytes, over the 16 MiB kept as a handle: page it with offset_lines (next_offset_lines)", size)
	}
	if w.ByteBudget {
		call.Warn("stopped after %d lines to keep the answer within the output cap; continue with offset_lines %d", len(w.Lines), end)
	}
	if w.CutLines > 0 {
		call.Warn("%d lines longer than %d bytes were cut", w.CutLines, maxLineBytes)
	}
	if w.BadUTF8 > 0 {
		call.Warn("%d lines held invalid UTF-8, replaced with U+FFFD", w.BadUTF8)
	}
	return out, nil
}

// checkText refuses a file whose first 8 KiB hold a NUL byte, naming its
// size and detected type so the agent knows what it is.
func checkText(ra io.ReaderAt, size int64, given string) error {
	head := make([]byte, min(size, 8192))
	if _, err := ra.ReadAt(head, 0); err != nil && err != io.EOF {
		return tool.Wrap(tool.ExecutionFailed, err, "reading %q: %s", tool.Clip(given), tool.Clip(err.Error()))
	}
	if bytes.IndexByte(head, 0) < 0 {
		return nil
	}
	return tool.Errorf(tool.BinaryFile, "%q is a binary file (%d bytes, %s)", tool.Clip(given), size, detectType(head)).
		WithSuggestion("Only text files can be read; search_files and fs_list show its metadata.")
}

// detectType names common binary formats; http.DetectContentType covers
// images, archives and the like.
func detectType(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x7fELF")):
		return "ELF executable or library"
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return "SQLite database"
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}), bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		return "UTF-16 text"
	}
	return fmt.Sprint(http.DetectContentType(head))
}
