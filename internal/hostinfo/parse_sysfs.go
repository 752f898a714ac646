package hostinfo

import (
	"fmt"
	"strconv"
	"strings"
)

// parseBracketed returns the selected word of a sysfs choice file such as
// /sys/kernel/mm/transparent_hugepage/enabled, "always [madvise] never"
// (Documentation/admin-guide/mm/transhuge.rst), and all the words offered.
func parseBracketed(b []byte) (selected string, choices []string, err error) {
	for _, w := range strings.Fields(string(b)) {
		if len(w) > 2 && w[0] == '[' && w[len(w)-1] == ']' {
			if selected != "" {
				return "", nil, fmt.Errorf("parsing choice %q: more than one selected", b)
			}
			w = w[1 : len(w)-1]
			selected = w
		}
		choices = append(choices, w)
	}
	if selected == "" {
		return "", nil, fmt.Errorf("parsing choice %q: none selected", b)
	}
	return selected, choices, nil
}

// maxListEntries bounds a CPU or node list; the kernel's NR_CPUS tops out at 8192.
const maxListEntries = 1 << 16

// parseCPUList parses a kernel CPU or node list such as "0-3,8,10-11" (the
// "cpulist" format of Documentation/admin-guide/cputopology.rst) into the numbers
// it names, in order.
func parseCPUList(b []byte) ([]int, error) {
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil, nil
	}
	var ids []int
	for part := range strings.SplitSeq(s, ",") {
		lo, hi, isRange := strings.Cut(part, "-")
		first, err := strconv.Atoi(lo)
		if err != nil || first < 0 {
			return nil, fmt.Errorf("parsing cpu list %q: bad number %q", s, lo)
		}
		last := first
		if isRange {
			if last, err = strconv.Atoi(hi); err != nil || last < first {
				return nil, fmt.Errorf("parsing cpu list %q: bad range %q", s, part)
			}
		}
		if last-first >= maxListEntries-len(ids) {
			return nil, fmt.Errorf("parsing cpu list %q: more than %d entries", s, maxListEntries)
		}
		for i := first; i <= last; i++ {
			ids = append(ids, i)
		}
	}
	return ids, nil
}
