package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Captured on this kind of host (see testdata/README.md): two direct-I/O dd
// writers in a v1 blkio cgroup limited to 80 write IOPS on vda. The summary
// must show the limit, the counters from blkio and where each was read
// (health's fixture tests judge it).
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
}
