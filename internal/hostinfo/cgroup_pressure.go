package hostinfo

import (
	"os"
	"path/filepath"
	"time"
)

// CgroupPressureWindow is a cgroup's own stall over the interval, from the
// growth of the total= counters of its v2 <resource>.pressure files, judged
// like the host's (see PSIWindow). From names the files read, as in every
// section of a cgroup summary.
type CgroupPressureWindow struct {
	From   []CgroupSource `json:"from"`
	CPU    *PSIWindow     `json:"cpu,omitempty"`
	Memory *PSIWindow     `json:"memory,omitempty"`
	IO     *PSIWindow     `json:"io,omitempty"`
}

// ownPressure reads the pressure files of d's own v2 directory. The v2
// root has none of its own to give: its files are the whole host's, which
// on a hybrid host is where a process left in the root appears, so a
// directory without cgroup.type (which every non-root v2 cgroup has,
// Documentation/admin-guide/cgroup-v2.rst) is not read.
func ownPressure(d CgroupDirs) map[string]PSIStats {
	if d.V2 == "" || !exists(filepath.Join(d.V2, "cgroup.type")) {
		return nil
	}
	out := map[string]PSIStats{}
	for _, res := range psiResources {
		b, err := os.ReadFile(filepath.Join(d.V2, res+".pressure"))
		if err != nil {
			continue
		}
		if st, err := parsePSI(b); err == nil {
			out[res] = st
		}
	}
	return out
}

// ownPressureWindow is the window between two samples' pressure
// readings; nil when the cgroup has no pressure files of its own.
func ownPressureWindow(a, b map[string]PSIStats, dt time.Duration) *CgroupPressureWindow {
	if len(b) == 0 {
		return nil
	}
	w := &CgroupPressureWindow{}
	for res, after := range b {
		before, ok := a[res]
		if !ok {
			before = after
		}
		pw := psiWindow(before, after, dt)
		switch res {
		case "cpu":
			w.CPU = &pw
		case "memory":
			w.Memory = &pw
		case "io":
			w.IO = &pw
		}
	}
	return w
}
