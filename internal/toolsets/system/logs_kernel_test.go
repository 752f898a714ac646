package system

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

func TestParseKmsgRecord(t *testing.T) {
	boot := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
	cases := []struct {
		rec  string
		ok   bool
		want logEntry
	}{
		{"6,1234,5000000,-;EXT4-fs (vda): mounted filesystem\n SUBSYSTEM=block\n DEVICE=b254:0\n", true,
			logEntry{Time: "2026-11-25T10:00:05Z", Priority: "info", Identifier: "kernel", Message: "EXT4-fs (vda): mounted filesystem"}},
		{"3,7,1500,c;Out of memory: Killed process 4242 (stress)\n", true,
			logEntry{Time: "2026-11-25T10:00:00.0015Z", Priority: "err", Identifier: "kernel", Message: "Out of memory: Killed process 4242 (stress)"}},
		// Facility 3 (daemon): a program wrote it, tagged like syslog.
		{"30,99,7000000,-;systemd[1]: Started foo.service.\n", true,
			logEntry{Time: "2026-11-25T10:00:07Z", Priority: "info", Identifier: "systemd", PID: 1, Message: "Started foo.service."}},
		{"12,100,0,-;an untagged line\n", true,
			logEntry{Time: "2026-11-25T10:00:00Z", Priority: "warning", Message: "an untagged line"}},
		{"garbage", false, logEntry{}},
		{"6,1;no time", false, logEntry{}},
		{"x,1,2,-;bad priority", false, logEntry{}},
		{"6,1,-5,-;negative time", false, logEntry{}},
	}
	for _, c := range cases {
		got, ok := parseKmsgRecord([]byte(c.rec), boot)
		if ok != c.ok || ok && got.entry != c.want {
			t.Errorf("%q: got %+v, %v; want %+v, %v", c.rec, got.entry, ok, c.want, c.ok)
		}
	}
}

func FuzzParseKmsgRecord(f *testing.F) {
	f.Add([]byte("6,1234,5000000,-;EXT4-fs (vda): mounted\n SUBSYSTEM=block\n"))
	f.Add([]byte("30,99,7000000,-;systemd[1]: Started foo.service.\n"))
	f.Fuzz(func(t *testing.T, rec []byte) {
		r, ok := parseKmsgRecord(rec, time.Unix(0, 0))
		if ok && (r.priority < 0 || r.priority > 7 || len(r.entry.Message) > maxMessage+len("…")) {
			t.Fatalf("%q: %+v", rec, r)
		}
	})
}

// sys_logs reads the kernel's own log: a record written to /dev/kmsg comes
// back with its program, pid, priority and a time of now, filtered by
// priority, age and regex; without a journal or log file it is the
// fallback, and without /dev/kmsg the answer is CAPABILITY_MISSING.
func TestLogsFromKernel(t *testing.T) {
	testutil.RequireRoot(t)
	testutil.RequireFile(t, "/dev/kmsg")
	marker := fmt.Sprintf("marker-%d-%d", os.Getpid(), time.Now().UnixNano())
	kmsg, err := os.OpenFile("/dev/kmsg", os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	// Priority 5 (notice), so that it stays out of a warnings search; the
	// kernel gives it the user facility.
	_, err = fmt.Fprintf(kmsg, "<5>hostmcp-test[%d]: sys_logs test %s\n", os.Getpid(), marker)
	kmsg.Close()
	if err != nil {
		t.Fatal(err)
	}
	written := time.Now()

	s := logsSet(t, t.TempDir(), nil)
	out, terr := callLogs(t, s, `{"source":"kernel","grep":"`+marker+`","priority":"notice","since":"1h"}`)
	if terr != nil {
		t.Fatal(terr)
	}
	if out.Source != "kernel" || len(out.Entries) != 1 || out.Scanned < 2 {
		t.Fatalf("the marker in the kernel log: %+v", out)
	}
	e := out.Entries[0]
	at, err := time.Parse(time.RFC3339Nano, e.Time)
	if err != nil || e.Identifier != "hostmcp-test" || e.PID != os.Getpid() || e.Priority != "notice" || e.Message != "sys_logs test "+marker {
		t.Fatalf("the marker's entry: %+v", e)
	}
	if d := at.Sub(written); d < -time.Minute || d > time.Minute {
		t.Fatalf("the marker is dated %s, written at %s", at, written)
	}
	out, terr = callLogs(t, s, `{"source":"kernel","grep":"`+marker+`","priority":"warning"}`)
	if terr != nil || len(out.Entries) != 0 {
		t.Fatalf("a notice passed priority warning: %+v %v", out.Entries, terr)
	}

	// No journal, no log file: the kernel log is the fallback.
	out, terr = callLogs(t, s, `{"grep":"`+marker+`"}`)
	if terr != nil || out.Source != "kernel" || len(out.Entries) != 1 {
		t.Fatalf("fallback to the kernel log: %+v %v", out, terr)
	}
	if _, terr := callLogs(t, s, `{"source":"journal"}`); terr == nil || terr.Code != tool.CapabilityMissing {
		t.Fatalf("source journal without a journal: %+v", terr)
	}
	s.kmsgPath = filepath.Join(t.TempDir(), "kmsg")
	if _, terr := callLogs(t, s, `{}`); terr == nil || terr.Code != tool.CapabilityMissing {
		t.Fatalf("no journal, no file, no kernel log: %+v", terr)
	}
}
