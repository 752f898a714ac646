package fsroot

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// pathError turns an error from an operation on given into a tool error
// that names only given: the *PathError's own path may be a resolved name
// the agent must not see, so only its errno is kept.
func pathError(op, given string, err error) *tool.Error {
	given = tool.Clip(given)
	var te *tool.Error
	if errors.As(err, &te) {
		return te
	}
	var errno syscall.Errno
	hasErrno := errors.As(err, &errno)
	switch {
	case escapes(err):
		return tool.Wrap(tool.InvalidPath, err, "%s %q: the path leads outside the allowed roots (through \"..\" or a symbolic link)", op, given)
	case errors.Is(err, fs.ErrNotExist):
		return tool.Wrap(tool.NotFound, err, "%s %q: no such file or directory", op, given)
	case errors.Is(err, fs.ErrExist):
		return tool.Wrap(tool.AlreadyExists, err, "%s %q: it already exists", op, given)
	case errors.Is(err, fs.ErrPermission):
		return tool.Wrap(tool.PermissionDenied, err, "%s %q: permission denied", op, given)
	case hasErrno && errno == syscall.ENOTDIR:
		return tool.Wrap(tool.NotADirectory, err, "%s %q: a component of the path is not a directory", op, given)
	case hasErrno && errno == syscall.EISDIR:
		return tool.Wrap(tool.IsDirectory, err, "%s %q: it is a directory", op, given)
	case hasErrno && errno == syscall.ELOOP:
		return tool.Wrap(tool.InvalidPath, err, "%s %q: too many levels of symbolic links", op, given)
	case hasErrno && (errno == syscall.ENOSPC || errno == syscall.EDQUOT || errno == syscall.EROFS || errno == syscall.EIO):
		return tool.Wrap(tool.WriteFailed, err, "%s %q: %v", op, given, errno)
	case hasErrno && errno == syscall.ENOTEMPTY:
		return tool.Wrap(tool.AlreadyExists, err, "%s %q: the directory is not empty", op, given)
	case hasErrno && errno == syscall.ENAMETOOLONG:
		return tool.Wrap(tool.InvalidPath, err, "%s %q: name too long", op, given)
	case hasErrno:
		return tool.Wrap(tool.ExecutionFailed, err, "%s %q: %v", op, given, errno)
	}
	return tool.Wrap(tool.Internal, err, "%s %q failed", op, given)
}

// escapes recognises os.Root's refusal of a path that leaves it. The error
// is unexported in package os, so its text is the only handle on it.
func escapes(err error) bool {
	return err != nil && strings.Contains(err.Error(), "path escapes from parent")
}
