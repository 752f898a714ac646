package testutil

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// CgroupDir creates a cgroup for the test in controller's v1 hierarchy,
// or in the unified one (enabling the controller there) where the host has
// no v1 hierarchy for it, and writes files into it. It returns the
// cgroup's directory and a function that moves a process into it. The
// cgroup is removed at cleanup, after the test's processes: their own
// cleanups, registered later, kill them first.
func CgroupDir(t testing.TB, controller string, files map[string]string) (string, func(pid int)) {
	t.Helper()
	RequireRoot(t)
	parent := "/sys/fs/cgroup/" + controller
	if _, err := os.Stat(parent); err != nil {
		parent = "/sys/fs/cgroup"
		if err := os.WriteFile(parent+"/cgroup.subtree_control", []byte("+"+controller), 0); err != nil {
			Missing(t, "cannot enable the %s controller: %v", controller, err)
		}
	}
	dir, err := os.MkdirTemp(parent, "hostmcp-test-")
	if err != nil {
		Missing(t, "cannot create a cgroup under %s: %v", parent, err)
	}
	t.Cleanup(func() {
		for range 50 {
			if os.Remove(dir) == nil {
				return
			}
			time.Sleep(100 * time.Millisecond)
		}
		t.Errorf("cgroup %s could not be removed", dir)
	})
	for name, v := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(v), 0); err != nil {
			t.Fatalf("setting %s: %v", name, err)
		}
	}
	return dir, func(pid int) {
		if err := os.WriteFile(filepath.Join(dir, "cgroup.procs"), []byte(strconv.Itoa(pid)), 0); err != nil {
			t.Fatalf("moving %d into %s: %v", pid, dir, err)
		}
	}
}
