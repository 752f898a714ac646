package health

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// File system capacity in the USE check: a nearly full mount is critical,
// a mount short of inodes a warning, recorded ext4 errors a warning with
// their time, and roomy file systems stay out of the suspicions.
func TestFilesystemUSE(t *testing.T) {
	t.Parallel()
	three, none := uint64(3), uint64(0)
	s := hostinfo.PerfSnapshot{Filesystems: []hostinfo.FilesystemUse{
		{Disk: hostinfo.Disk{Mount: "/", Device: "/dev/vda", UsedPercent: 40, InodesUsedPercent: 10}, Errors: &none},
		{Disk: hostinfo.Disk{Mount: "/var", Device: "/dev/vdb", UsedPercent: 97.5, InodesUsedPercent: 20, AvailBytes: 1 << 20, TotalBytes: 40 << 20},
			DeletedOpen: &hostinfo.DeletedOpen{Bytes: 3 << 20, Files: 2, Holders: []string{"pid 7 (app) /var/log/app.log (deleted), 2.0 MiB", "pid 8 (x) /var/tmp/y (deleted), 1.0 MiB"}}},
		{Disk: hostinfo.Disk{Mount: "/srv", Device: "/dev/vdc", UsedPercent: 50, InodesUsedPercent: 90}, Errors: &three, LastErrorTime: "2026-11-25T10:00:00Z"},
	}}
	u := AnalyzeUSE(s)
	var got []string
	for _, x := range u.Summary.TopSuspicions {
		if x.Resource == "filesystem" {
			got = append(got, x.Severity+" "+x.Metric+" "+x.Detail)
		}
	}
	want := []string{
		"critical filesystem_used_percent /var 98% full (1.0 MiB free of 40.0 MiB, /dev/vdb); 3.0 MiB held by 2 deleted files still open, the largest pid 7 (app) /var/log/app.log (deleted), 2.0 MiB",
		"warning filesystem_errors /srv (/dev/vdc): 3 errors recorded since the last fsck, the last at 2026-11-25T10:00:00Z",
		"warning filesystem_inodes_used_percent /srv 90% of inodes used",
	}
	if len(got) != len(want) {
		t.Fatalf("filesystem suspicions:\n%q\nwant\n%q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("suspicion %d: %q, want %q", i, got[i], want[i])
		}
	}
	fs := u.Resources.Filesystem
	if fs.Utilization.Status != StatusCritical || fs.Utilization.Value != 97.5 || fs.Errors.Count != 3 || fs.Errors.Status != StatusWarning || fs.Saturation.Status != StatusHealthy {
		t.Errorf("filesystem resource: %+v", fs)
	}
	if e := AnalyzeUSE(hostinfo.PerfSnapshot{}).Resources.Filesystem; e.Utilization.Status != StatusHealthy || e.Errors.Status != StatusHealthy {
		t.Errorf("no file systems read: %+v", e)
	}
}
