//go:build !amd64 && !arm64

package landlock

// nativeSyscalls has no table for this architecture (the filter reads the
// low half of an argument where a little-endian machine keeps it), so
// Landlock keeps handling the truncate right here.
func nativeSyscalls() (syscallTable, bool) { return syscallTable{}, false }
