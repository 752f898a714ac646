package hostinfo

import (
	"fmt"
	"os"

	"github.com/prometheus/procfs"
)

// Memory is the memory configuration perf_info reports.
type Memory struct {
	TotalBytes       uint64 `json:"total_bytes"`
	HugePagesEnabled bool   `json:"huge_pages_enabled"` // HugePages_Total > 0: a hugetlb pool is reserved
	// THPEnabled is true when transparent huge pages are used for at least the
	// regions that ask for them (mode "always" or "madvise").
	THPEnabled bool   `json:"thp_enabled"`
	THPMode    string `json:"thp_mode"` // "always", "madvise" or "never"; "" when THP is not built in
}

// meminfo reads /proc/meminfo through procfs, which already parses it well.
func (h *Host) meminfo() (procfs.Meminfo, error) {
	fs, err := procfs.NewFS(h.roots.Proc)
	if err != nil {
		return procfs.Meminfo{}, fmt.Errorf("opening procfs at %s: %w", h.roots.Proc, err)
	}
	mi, err := fs.Meminfo()
	if err != nil {
		return procfs.Meminfo{}, fmt.Errorf("reading meminfo: %w", err)
	}
	return mi, nil
}

func (h *Host) memory(w *warnings) Memory {
	var m Memory
	if mi, err := h.meminfo(); err != nil {
		w.add("memory size unknown: %v", err)
	} else {
		m.TotalBytes = deref(mi.MemTotalBytes)
		m.HugePagesEnabled = deref(mi.HugePagesTotal) > 0
	}
	b, err := os.ReadFile(h.sysPath("kernel", "mm", "transparent_hugepage", "enabled"))
	if os.IsNotExist(err) {
		return m // a kernel without CONFIG_TRANSPARENT_HUGEPAGE: THP off, nothing to warn about
	}
	if err != nil {
		w.add("transparent huge pages mode unknown: %v", err)
		return m
	}
	if m.THPMode, _, err = parseBracketed(b); err != nil {
		w.add("transparent huge pages mode unknown: %v", err)
		return m
	}
	m.THPEnabled = m.THPMode == "always" || m.THPMode == "madvise"
	return m
}

func deref(p *uint64) uint64 {
	if p == nil {
		return 0
	}
	return *p
}
