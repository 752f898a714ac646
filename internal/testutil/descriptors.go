package testutil

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// DescriptorsUnder counts this process's open descriptors on dir or on a
// path below it. A test that opens and closes descriptors there counts back
// to where it began, whatever other tests' descriptors do meanwhile.
func DescriptorsUnder(t testing.TB, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name()))
		if err == nil && (target == dir || strings.HasPrefix(target, dir+"/")) {
			n++
		}
	}
	return n
}
