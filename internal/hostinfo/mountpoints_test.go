package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestMountPoints(t *testing.T) {
	t.Parallel()
	got, err := MountPoints([]byte("27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" +
		"623 612 8:17 /srv/my\\040dir /data/my\\040vol rw shared:5 master:2 - ext4 /dev/sdb1 rw\n"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, []string{"/", "/data/my vol"}); diff != "" {
		t.Errorf("(-got +want):\n%s", diff)
	}
	if _, err := MountPoints([]byte("36 35 98:0 /mnt1 /mnt2 rw ext3 /dev/root rw\n")); err == nil {
		t.Error("a line without its separator was accepted")
	}
}
