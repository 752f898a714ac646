package files

import (
	"context"
	"regexp"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/tool"
)

type writeIn struct {
	Path           string `json:"path" jsonschema:"file to write"`
	Content        string `json:"content" jsonschema:"UTF-8 text"`
	Mode           string `json:"mode,omitempty" jsonschema:"rewrite replaces atomically" default:"rewrite"`
	ExpectedSHA256 string `json:"expected_sha256,omitempty" jsonschema:"hex SHA-256 the file must have, from fs_read with sha256"`
	CreateParents  bool   `json:"create_parents,omitempty"`
	AllowHardlink  bool   `json:"allow_hardlink,omitempty" jsonschema:"replace only this name of a hard-linked file"`
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
		Description: "Replace a text file atomically (mode kept) or append; with expected_sha256, only if unchanged.",
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
