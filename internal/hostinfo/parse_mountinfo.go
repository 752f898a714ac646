package hostinfo

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// mountInfo is one line of /proc/<pid>/mountinfo.
type mountInfo struct {
	ID, Parent int
	Dev        string // "major:minor" of the filesystem (st_dev)
	Root       string // directory of the filesystem mounted here (differs for bind mounts)
	MountPoint string
	FSType     string
	Source     string
}

// parseMountInfo parses /proc/<pid>/mountinfo as described in
// proc_pid_mountinfo(5):
//
//	36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue
//
// procfs parses this file too, but leaves the octal escapes (\040 for a space) in
// paths and cannot split a line whose source contains " - "; we find the separator
// as a field after the optional ones and unescape root, mount point and source.
func parseMountInfo(b []byte) ([]mountInfo, error) {
	var mounts []mountInfo
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			continue
		}
		m, err := parseMountInfoLine(line)
		if err != nil {
			return nil, fmt.Errorf("parsing mountinfo line %d: %w", n, err)
		}
		mounts = append(mounts, m)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("scanning mountinfo: %w", err)
	}
	return mounts, nil
}

func parseMountInfoLine(line string) (mountInfo, error) {
	f := strings.Fields(line)
	sep := -1
	for i := 6; i < len(f); i++ {
		if f[i] == "-" {
			sep = i
			break
		}
	}
	if sep < 0 || len(f) < sep+3 {
		return mountInfo{}, fmt.Errorf("%q: want 6 fields, optional fields, \"-\", fstype and source", line)
	}
	id, err := strconv.Atoi(f[0])
	if err != nil {
		return mountInfo{}, fmt.Errorf("mount id %q: %w", f[0], err)
	}
	parent, err := strconv.Atoi(f[1])
	if err != nil {
		return mountInfo{}, fmt.Errorf("parent id %q: %w", f[1], err)
	}
	if !strings.Contains(f[2], ":") {
		return mountInfo{}, fmt.Errorf("device %q: want major:minor", f[2])
	}
	return mountInfo{
		ID:         id,
		Parent:     parent,
		Dev:        f[2],
		Root:       unescapeOctal(f[3]),
		MountPoint: unescapeOctal(f[4]),
		FSType:     f[sep+1],
		Source:     unescapeOctal(f[sep+2]),
	}, nil
}

// unescapeOctal undoes the kernel's mangling of paths in mount tables (see
// seq_path/mangle_path in fs/seq_file.c): space, tab, newline and backslash are
// written as a backslash and three octal digits. Anything else is left as is.
func unescapeOctal(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] <= '3' && isOctal(s[i+1]) && isOctal(s[i+2]) && isOctal(s[i+3]) {
			v := (s[i+1]-'0')<<6 | (s[i+2]-'0')<<3 | (s[i+3] - '0')
			b.WriteByte(v)
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func isOctal(c byte) bool { return c >= '0' && c <= '7' }
