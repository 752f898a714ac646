package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The records this kernel writes for a cgroup's OOM kill and for the
// host's, among other lines; a name with a comma and a record whose
// "Killed process" line was overwritten before it was read.
func TestParseKmsgOOM(t *testing.T) {
	t.Parallel()
	log := "4,366,7579260806,-;perf.test invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0, oom_score_adj=0\n" +
		" SUBSYSTEM=memory\n" +
		"6,443,7579261144,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/hostmcp-test-1,task_memcg=/hostmcp-test-1/child,task=perf.test,pid=14230,uid=0\n" +
		"3,444,7579261171,-;Memory cgroup out of memory: Killed process 14230 (perf.test) total-vm:1826620kB, anon-rss:66816kB, file-rss:8348kB, shmem-rss:0kB, UID:0 pgtables:268kB oom_score_adj:0\n" +
		"6,500,9000000000,-;oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/user.slice,task=web, worker,pid=77,uid=1000\n" +
		"3,501,9000000100,-;Out of memory: Killed process 77 (web, worker) total-vm:100kB, anon-rss:4096kB, file-rss:0kB\n" +
		"6,600,9100000000,-;oom-kill:constraint=CONSTRAINT_MEMCG,oom_memcg=/a,task_memcg=/a,task=gone,pid=88,uid=0\n" +
		"6,601,9100000001,-;oom-kill:task=nopid,uid=0\n" +
		"garbage without a header\n"
	want := []OOMKill{
		{PID: 14230, Comm: "perf.test", Cgroup: "/hostmcp-test-1/child", LimitCgroup: "/hostmcp-test-1", Constraint: "CONSTRAINT_MEMCG", AnonRSSBytes: 66816 << 10, AtSeconds: 7579.261144},
		{PID: 77, Comm: "web, worker", Cgroup: "/user.slice", Constraint: "CONSTRAINT_NONE", AnonRSSBytes: 4096 << 10, AtSeconds: 9000},
		{PID: 88, Comm: "gone", Cgroup: "/a", LimitCgroup: "/a", Constraint: "CONSTRAINT_MEMCG", AtSeconds: 9100},
	}
	if diff := cmp.Diff(want, parseKmsgOOM([]byte(log))); diff != "" {
		t.Errorf("OOM kills (-want +got):\n%s", diff)
	}
}

// Whatever the kernel log holds, every victim found has a pid.
func FuzzParseKmsgOOM(f *testing.F) {
	f.Add([]byte("6,610,8252518863,-;oom-kill:constraint=CONSTRAINT_MEMCG,nodemask=(null),cpuset=/,mems_allowed=0,oom_memcg=/x,task_memcg=/x,task=a,b,pid=1,uid=0\n" +
		"3,611,8252518899,-;Memory cgroup out of memory: Killed process 1 (a,b) total-vm:57528kB, anon-rss:47744kB, file-rss:6680kB\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, k := range parseKmsgOOM(b) {
			if k.PID < 1 {
				t.Fatalf("victim with pid %d from %q", k.PID, b)
			}
		}
	})
}
