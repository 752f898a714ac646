package files

import (
	"context"
	"regexp"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type writeIn struct {
	Path           string `json:"path" jsonschema:"file to write; absolute, or relative to the first root"`
	Content        string `json:"content" jsonschema:"UTF-8 text to write"`
	Mode           string `json:"mode,omitempty" jsonschema:"rewrite (default: replace the whole file atomically) or append"`
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"hex SHA-256 the current content must have (fs_read gives it); on a mismatch nothing is written (SHA_MISMATCH); a missing file passes"`
	CreateParents  bool   `json:"create_parents,omitempty" jsonschema:"create missing parent directories; default false"`
	AllowHardlink  bool   `json:"allow_hardlink,omitempty" jsonschema:"write a file that has other hard links by replacing only this name (the others keep the old content); default false: refused"`
}

type writeOut struct {
	Path         string `json:"path" jsonschema:"absolute path written"`
	BytesWritten int64  `json:"bytes_written" jsonschema:"bytes of content written"`
	NewSHA256    string `json:"new_sha256" jsonschema:"SHA-256 of the whole file after the write"`
	Created      bool   `json:"created,omitempty" jsonschema:"true when the file did not exist"`
	FileMode     string `json:"file_mode" jsonschema:"permission bits of the file, octal"`
}

var hexSHA = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (s *Set) write() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fs_write",
		Kind:        tool.Destructive,
		Title:       "Write a text file",
		Description: "Replace (atomically, keeping the file mode) or append to a text file inside the allowed roots, optionally only if its current sha256 matches.",
	}, s.handleWrite).WithEnum("mode", "rewrite", "append").WithMaxLength("content", tool.MaxTextLength)
}

func (s *Set) handleWrite(ctx context.Context, call *tool.Call, in writeIn) (writeOut, error) {
	if in.ExpectedSHA256 != "" && !hexSHA.MatchString(in.ExpectedSHA256) {
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
	res, err := loc.Write([]byte(in.Content), fsroot.WriteOptions{
		Append:         in.Mode == "append",
		ExpectedSHA256: in.ExpectedSHA256,
		CreateParents:  in.CreateParents,
		AllowHardlink:  in.AllowHardlink,
	})
	if err != nil {
		return writeOut{}, err
	}
	return writeOut{
		Path: loc.Abs(), BytesWritten: res.BytesWritten, NewSHA256: res.NewSHA256,
		Created: res.Created, FileMode: octal(res.Mode),
	}, nil
}
