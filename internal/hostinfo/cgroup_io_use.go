package hostinfo

import (
	"fmt"
	"path/filepath"
	"strings"
)

// ThreshIOLimit judges how much of a throttle limit a cgroup used over the
// interval. blk-throttle queues I/O beyond the limit, so a cgroup near it
// waits on its own throttle however idle the disk: at 95% it is held back
// (the rate swings a few percent around the limit as the throttle
// dispatches in slices), at 80% it is close to it.
var ThreshIOLimit = Threshold{Metric: "io_limit_used_percent", Warn: 80, Crit: 95}

// ioLimitFindings judges each throttle limit of the cgroup against its rate.
func ioLimitFindings(io *CgroupIO) []finding {
	if io == nil {
		return nil
	}
	var fs []finding
	for _, d := range io.Devices {
		for _, l := range d.Limits {
			verb := "reads"
			if strings.HasPrefix(l.Kind, "write") {
				verb = "writes"
			}
			rate, limit := fmt.Sprintf("%.1f I/Os/s", l.Rate), fmt.Sprintf("%d", l.Limit)
			if strings.HasSuffix(l.Kind, "_bps") {
				rate, limit = bytesIEC(uint64(l.Rate))+"/s", bytesIEC(l.Limit)+"/s"
			}
			fs = append(fs, check("cgroup", "saturation", ThreshIOLimit, ThreshIOLimit.Metric, l.UsedPercent,
				fmt.Sprintf("%s %s %s against a limit of %s in %s (%.0f%%): its I/O waits on the cgroup's throttle",
					d.Device, verb, rate, limit, limitName(l), l.UsedPercent)))
		}
	}
	return fs
}

// limitName names where a limit is set: the v1 file, or io.max and its key.
func limitName(l IOLimit) string {
	name := filepath.Base(l.File)
	if name != "io.max" {
		return name
	}
	for _, k := range ioKinds {
		if k.name == l.Kind {
			return name + " " + k.v2Key
		}
	}
	return name
}
