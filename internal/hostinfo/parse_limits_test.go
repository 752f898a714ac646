package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBlkioLimitLines(t *testing.T) {
	t.Parallel()
	got, err := parseBlkioLimitLines([]byte("254:0 80\n8:16 1048576\n"))
	if diff := cmp.Diff(map[string]uint64{"254:0": 80, "8:16": 1048576}, got); diff != "" || err != nil {
		t.Errorf("limits (-want +got):\n%s %v", diff, err)
	}
	if got, err := parseBlkioLimitLines(nil); err != nil || len(got) != 0 {
		t.Errorf("no limit: %v %v", got, err)
	}
	for _, bad := range []string{"sda 80\n", "254:0\n", "254:0 -1\n", "254:0 80 1\n", "254 80\n"} {
		if _, err := parseBlkioLimitLines([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseIOMaxLines(t *testing.T) {
	t.Parallel()
	got, err := parseIOMaxLines([]byte("254:0 rbps=max wbps=10485760 riops=max wiops=80\n8:0 rbps=1 wbps=max riops=2 wiops=max\n"))
	want := map[string]DeviceIOLimits{"254:0": {WriteBPS: 10 << 20, WriteIOPS: 80}, "8:0": {ReadBPS: 1, ReadIOPS: 2}}
	if diff := cmp.Diff(want, got); diff != "" || err != nil {
		t.Errorf("io.max (-want +got):\n%s %v", diff, err)
	}
	for _, bad := range []string{"vda rbps=1\n", "254:0 rbps\n", "254:0 wiops=lots\n"} {
		if _, err := parseIOMaxLines([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func FuzzParseLimitFiles(f *testing.F) {
	f.Add([]byte("254:0 80\n"))
	f.Add([]byte("254:0 rbps=max wbps=10485760 riops=max wiops=80\n"))
	f.Add([]byte("6,610,8252518863,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/x,task_memcg=/x,task=a,b,pid=1,uid=0\n" +
		"3,611,8252518899,-;Memory cgroup out of memory: Killed process 1 (a,b) total-vm:57528kB, anon-rss:47744kB, file-rss:6680kB\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseBlkioLimitLines(b)
		_, _ = parseIOMaxLines(b)
		for _, k := range parseKmsgOOM(b) {
			if k.PID < 1 {
				t.Fatalf("victim with pid %d from %q", k.PID, b)
			}
		}
	})
}
