// Package badtoolset is a toolset that reads the host the ways the check forbids.
package badtoolset

import (
	"fmt"
	"github.com/prometheus/procfs"
	"github.com/prometheus/procfs/sysfs"
)

var (
	comm  = fmt.Sprintf("/proc/%d/comm", 1)
	block = `/sys/class/block`
	_, _  = procfs.NewFS("/proc")
	_     = sysfs.FS{}
	fine  = "perf_io_latency (from /proc/diskstats)"
)
