package hostinfo

// MountPoints lists the mount points of a mountinfo file
// (proc_pid_mountinfo(5)), escapes undone, in the file's order. It is for
// callers that need only where file systems are mounted: the search tools
// name the mounts ripgrep's --one-file-system left out, which it does not.
func MountPoints(mountinfo []byte) ([]string, error) {
	ms, err := parseMountInfo(mountinfo)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.MountPoint
	}
	return out, nil
}
