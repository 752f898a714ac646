package hostinfo

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseMountInfo(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    []mountInfo
		wantErr bool
	}{
		{
			name: "man page example with optional field",
			in:   "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n",
			want: []mountInfo{{ID: 36, Parent: 35, Dev: "98:0", Root: "/mnt1", MountPoint: "/mnt2", FSType: "ext3", Source: "/dev/root"}},
		},
		{
			name: "no optional fields, escaped space and two lines",
			in: "27 1 254:0 / / rw,relatime - ext4 /dev/vda rw\n" +
				"623 612 8:17 /srv/my\\040dir /data/my\\040vol rw shared:5 master:2 - ext4 /dev/sdb1 rw\n",
			want: []mountInfo{
				{ID: 27, Parent: 1, Dev: "254:0", Root: "/", MountPoint: "/", FSType: "ext4", Source: "/dev/vda"},
				{ID: 623, Parent: 612, Dev: "8:17", Root: "/srv/my dir", MountPoint: "/data/my vol", FSType: "ext4", Source: "/dev/sdb1"},
			},
		},
		{
			name: "source with a dash",
			in:   "40 1 0:40 / /mnt/x rw - fuse.sshfs user@host:/a - b rw\n",
			want: []mountInfo{{ID: 40, Parent: 1, Dev: "0:40", Root: "/", MountPoint: "/mnt/x", FSType: "fuse.sshfs", Source: "user@host:/a"}},
		},
		{name: "blank lines skipped", in: "\n\n", want: nil},
		{name: "no separator", in: "36 35 98:0 /mnt1 /mnt2 rw,noatime ext3 /dev/root rw\n", wantErr: true},
		{name: "separator too early", in: "36 35 98:0 /mnt1 - ext3 /dev/root rw\n", wantErr: true},
		{name: "nothing after separator", in: "36 35 98:0 /mnt1 /mnt2 rw - ext3\n", wantErr: true},
		{name: "bad id", in: "x 35 98:0 / / rw - ext3 /dev/root rw\n", wantErr: true},
		{name: "bad parent", in: "36 x 98:0 / / rw - ext3 /dev/root rw\n", wantErr: true},
		{name: "bad device", in: "36 35 980 / / rw - ext3 /dev/root rw\n", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseMountInfo([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseMountInfo error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseMountInfo mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestUnescapeOctal(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{in: "/plain", want: "/plain"},
		{in: `/a\040b`, want: "/a b"},
		{in: `/tab\011nl\012bs\134`, want: "/tab\tnl\nbs\\"},
		{in: `/short\04`, want: `/short\04`},
		{in: `/not\089octal`, want: `/not\089octal`},
		{in: `/too\777big`, want: `/too\777big`},
		{in: `\`, want: `\`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			t.Parallel()
			if got := unescapeOctal(tc.in); got != tc.want {
				t.Errorf("unescapeOctal(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func FuzzParseMountInfo(f *testing.F) {
	f.Add([]byte("36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw,errors=continue\n"))
	f.Add([]byte("623 612 8:17 /srv/vol /data/my\\040vol rw - ext4 /dev/sdb1 rw\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		mounts, err := parseMountInfo(b)
		if err != nil {
			return
		}
		for _, m := range mounts {
			if m.FSType == "" || m.Source == "" || !strings.Contains(m.Dev, ":") {
				t.Errorf("incomplete mount accepted: %+v", m)
			}
		}
		_ = realMounts(mounts) // filtering must not panic either
	})
}
