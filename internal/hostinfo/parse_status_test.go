package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    procStatus
		wantErr bool
	}{
		{name: "root with all but CAP_SYS_RESOURCE", in: "Name:\tcat\nUid:\t0\t0\t0\t0\nCapInh:\t0000000000000000\nCapEff:\t000001fffeffffff\n",
			want: procStatus{EUID: 0, CapEff: 0x1fffeffffff}},
		{name: "setuid: effective differs from real", in: "Uid:\t1000\t0\t0\t0\nCapEff:\t0000000000000000\n", want: procStatus{UID: 1000}},
		{name: "user", in: "Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n", want: procStatus{UID: 1000, EUID: 1000, SUID: 1000}},
		{name: "every set, groups and no_new_privs",
			in: "Uid:\t1000\t1000\t1001\t1000\nGid:\t100\t5\t100\t100\nCapInh:\t0000004000000000\nCapPrm:\t000000c000000000\nCapEff:\t0000008000000000\nCapBnd:\t000001ffffffffff\nCapAmb:\t0000004000000000\nNoNewPrivs:\t1\n",
			want: procStatus{UID: 1000, EUID: 1000, SUID: 1001, GID: 100, EGID: 5, SGID: 100,
				CapInh: 1 << capPerfmon, CapPrm: 1<<capPerfmon | 1<<capBPF, CapEff: 1 << capBPF, CapBnd: 0x1ffffffffff, CapAmb: 1 << capPerfmon, NoNewPrivs: true}},
		{name: "two ids only", in: "Uid:\t7\t8\nCapEff:\t0\n", want: procStatus{UID: 7, EUID: 8, SUID: 8}},
		{name: "bad gid", in: "Uid:\t0\t0\t0\t0\nGid:\tx\t0\nCapEff:\t0\n", wantErr: true},
		{name: "no CapEff", in: "Uid:\t0\t0\t0\t0\n", wantErr: true},
		{name: "no Uid", in: "CapEff:\t0000000000000000\n", wantErr: true},
		{name: "short Uid", in: "Uid:\t0\nCapEff:\t0\n", wantErr: true},
		{name: "bad hex", in: "Uid:\t0\t0\t0\t0\nCapEff:\tzz\n", wantErr: true},
		{name: "hex too long", in: "Uid:\t0\t0\t0\t0\nCapEff:\t10000000000000000\n", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseStatus([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseStatus error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseStatus mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestCapNames(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		mask uint64
		want []string
	}{
		{name: "none", mask: 0, want: []string{}},
		{name: "docker default", mask: 0xa80425fb, want: []string{"CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER",
			"CAP_FSETID", "CAP_KILL", "CAP_SETGID", "CAP_SETUID", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
			"CAP_NET_RAW", "CAP_SYS_CHROOT", "CAP_MKNOD", "CAP_AUDIT_WRITE", "CAP_SETFCAP"}},
		{name: "perf and bpf", mask: 1<<capPerfmon | 1<<capBPF | 1<<capSysAdmin, want: []string{"CAP_SYS_ADMIN", "CAP_PERFMON", "CAP_BPF"}},
		{name: "last known and a future one", mask: 1<<40 | 1<<41 | 1<<63, want: []string{"CAP_CHECKPOINT_RESTORE", "CAP_41", "CAP_63"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(capNames(tc.mask), tc.want); diff != "" {
				t.Errorf("capNames(%#x) mismatch (-got +want):\n%s", tc.mask, diff)
			}
		})
	}
	if n := len(capabilityNames); n != 41 {
		t.Errorf("capabilityNames has %d names, want 41 (CAP_CHOWN=0 to CAP_CHECKPOINT_RESTORE=40)", n)
	}
}

func FuzzParseStatus(f *testing.F) {
	f.Add([]byte("Name:\tcat\nUid:\t0\t0\t0\t0\nCapEff:\t000001fffeffffff\n"))
	f.Add([]byte("Uid:\t1000\t1000\t1000\t1000\nCapEff:\t0000000000000000\n"))
	f.Add([]byte("Uid:\t1000\t1000\nGid:\t1\t1\t1\t1\nCapEff:\t0\nCapAmb:\t0000004000000000\nNoNewPrivs:\t1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		st, err := parseStatus(b)
		if err != nil {
			return
		}
		if st.UID < 0 || st.EUID < 0 || st.SUID < 0 || st.GID < 0 {
			t.Errorf("negative ids: %+v", st)
		}
		if names := capNames(st.CapEff); len(names) > 64 {
			t.Errorf("%d capability names from one 64-bit mask", len(names))
		}
	})
}
