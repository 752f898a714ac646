package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Captured on this kind of host (see testdata/README.md): two direct-I/O dd
// writers in a v1 blkio cgroup limited to 80 write IOPS on vda. The summary
// must show the limit, the counters from blkio and where each was read, and
// name the limit as the cause of the slow writes.
func TestCgroupSummaryBlkioFixture(t *testing.T) {
	t.Parallel()
	s, w := cgroupPair(t, "blkio-hybrid", 10862)
	if len(w) > 0 {
		t.Errorf("warnings: %q", w)
	}
	v := viewOf(t, s)
	const cg = "/hostmcp-blkio-fixture"
	if v.IO == nil || len(v.IO.Devices) != 1 {
		t.Fatalf("io: %+v", v.IO)
	}
	dir := "testdata/blkio-hybrid/b/sys/fs/cgroup/blkio" + cg
	wantFrom := []sourceView{{Hierarchy: "v1", Controller: "blkio", Cgroup: cg, Files: []string{
		dir + "/blkio.throttle.io_service_bytes", dir + "/blkio.throttle.io_serviced",
		dir + "/blkio.throttle.read_bps_device", dir + "/blkio.throttle.write_bps_device",
		dir + "/blkio.throttle.read_iops_device", dir + "/blkio.throttle.write_iops_device"}}}
	if diff := cmp.Diff(wantFrom, v.IO.From); diff != "" {
		t.Errorf("io from (-want +got):\n%s", diff)
	}
	// b minus a over 2 s: 160 writes, 655360 bytes, no reads.
	want := ioDevView{Device: "vda", MajorMinor: "254:0", Reads: 12, Writes: 312, WriteBytes: 1277952,
		WritesPerSec: 80, WriteBPS: 327680, Limits: []ioLimitView{
			{Kind: "read_bps", Limit: 10485760, File: dir + "/blkio.throttle.read_bps_device"},
			{Kind: "write_iops", Limit: 80, Rate: 80, UsedPercent: 100, File: dir + "/blkio.throttle.write_iops_device"},
		}}
	if diff := cmp.Diff(want, v.IO.Devices[0]); diff != "" {
		t.Errorf("vda (-want +got):\n%s", diff)
	}
	var named bool
	for _, x := range s.Summary.TopSuspicions {
		named = named || x.Resource == "cgroup" && x.Metric == ThreshIOLimit.Metric && x.Severity == StatusCritical && x.Value == 100 &&
			x.Detail == "vda writes 80.0 I/Os/s against a limit of 80 in blkio.throttle.write_iops_device (100%): its I/O waits on the cgroup's throttle"
	}
	if !named {
		t.Errorf("writes at their 80 IOPS limit must be the named cause: %q %+v", s.Summary.Verdict, s.Summary.TopSuspicions)
	}
}

// The hand-made v2 pod reads 10 MiB/s under an io.max rbps of 10 MiB/s; the
// 120 IOPS write limit of a device it does not use is shown, not blamed.
func TestCgroupIOLimitV2Fixture(t *testing.T) {
	t.Parallel()
	s, _ := cgroupPair(t, "cgroup-v2", 3120)
	var got []string
	for _, x := range s.Summary.TopSuspicions {
		if x.Metric == ThreshIOLimit.Metric {
			got = append(got, x.Severity+": "+x.Detail)
		}
	}
	want := []string{"critical: 254:0 reads 10.0 MiB/s against a limit of 10.0 MiB/s in io.max rbps (100%): its I/O waits on the cgroup's throttle"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("io limit suspicions (-want +got):\n%s", diff)
	}
}
