package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// io.stat lines carry more than the byte and I/O counts when iocost or
// io.latency is on (cgroup-v2.rst, blk-iocost.c, blk-iolatency.c): values
// that are not counts must not lose the counts.
func TestParseIOStat(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []ioStat
		bad      bool
	}{
		{name: "plain", in: "254:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n7:0 rbytes=1 wbytes=0 rios=1 wios=0\n",
			want: []ioStat{{Dev: "254:0", RBytes: 4096, WBytes: 8192, RIOs: 1, WIOs: 2}, {Dev: "7:0", RBytes: 1, RIOs: 1}}},
		{name: "iocost root", in: "8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0 cost.vrate=100.00 cost.usage=0 cost.wait=0 cost.indebt=0 cost.indelay=0\n",
			want: []ioStat{{Dev: "8:0", RBytes: 10, WBytes: 20, RIOs: 1, WIOs: 2}}},
		{name: "io.latency debug", in: "8:16 rbytes=5 wbytes=6 rios=7 wios=8 dbytes=0 dios=0 use_delay=0 delay_nsec=0 depth=max avg_lat=0 win=0\n",
			want: []ioStat{{Dev: "8:16", RBytes: 5, WBytes: 6, RIOs: 7, WIOs: 8}}},
		{name: "empty", in: "", want: nil},
		{name: "no major:minor", in: "sda rbytes=1\n", bad: true},
		{name: "minor not a number", in: "8:x rbytes=1\n", bad: true},
		{name: "count not a number", in: "8:0 rbytes=many\n", bad: true},
		{name: "not key=value", in: "8:0 rbytes\n", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseIOStat([]byte(tc.in))
			if tc.bad {
				if err == nil {
					t.Fatalf("%q parsed: %+v", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// io.max lists only devices with a limit; "max" is none (cgroup-v2.rst).
func TestParseIOMax(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []ioLimit
		bad      bool
	}{
		{name: "docs example", in: "8:16 rbps=2097152 wbps=max riops=max wiops=120\n",
			want: []ioLimit{{Dev: "8:16", Kind: 0, Value: 2097152}, {Dev: "8:16", Kind: 3, Value: 120}}},
		{name: "all max", in: "254:0 rbps=max wbps=max riops=max wiops=max\n", want: nil},
		{name: "two devices", in: "8:0 wbps=1048576\n8:16 riops=50\n",
			want: []ioLimit{{Dev: "8:0", Kind: 1, Value: 1048576}, {Dev: "8:16", Kind: 2, Value: 50}}},
		{name: "empty", in: "\n", want: nil},
		{name: "unknown key", in: "8:0 rbps=1 latency=5\n", bad: true},
		{name: "not a number", in: "8:0 wiops=lots\n", bad: true},
		{name: "negative", in: "8:0 wiops=-1\n", bad: true},
		{name: "device name", in: "sda wiops=1\n", bad: true},
		{name: "no value", in: "8:0 wiops\n", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseIOMax([]byte(tc.in))
			if tc.bad {
				if err == nil {
					t.Fatalf("%q parsed: %+v", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// The v1 throttle files hold "major:minor value" per device with a rule
// (cgroup-v1/blkio-controller.rst), as captured in testdata/blkio-hybrid.
func TestParseThrottleDevice(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []ioLimit
		bad      bool
	}{
		{name: "one rule", in: "254:0 80\n", want: []ioLimit{{Dev: "254:0", Kind: 3, Value: 80}}},
		{name: "two rules", in: "8:0 1048576\n8:16 2097152\n",
			want: []ioLimit{{Dev: "8:0", Kind: 3, Value: 1048576}, {Dev: "8:16", Kind: 3, Value: 2097152}}},
		{name: "no rule", in: "", want: nil},
		{name: "three fields", in: "8:0 Read 1\n", bad: true},
		{name: "not a number", in: "8:0 max\n", bad: true},
		{name: "device name", in: "vda 80\n", bad: true},
		{name: "no minor", in: "254 80\n", bad: true},
		{name: "no limit", in: "254:0\n", bad: true},
		{name: "negative", in: "254:0 -1\n", bad: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := parseThrottleDevice([]byte(tc.in), 3)
			if tc.bad {
				if err == nil {
					t.Fatalf("%q parsed: %+v", tc.in, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// blkio.throttle.io_service_bytes and io_serviced as this kernel prints
// them: Read, Write, Sync, Async, Discard and Total per device, and a
// closing Total.
func TestParseBlkioV1(t *testing.T) {
	t.Parallel()
	bytes := "254:0 Read 49152\n254:0 Write 1277952\n254:0 Sync 1327104\n254:0 Async 0\n254:0 Discard 0\n254:0 Total 1327104\n" +
		"7:0 Read 4096\n7:0 Write 0\n7:0 Sync 0\n7:0 Async 4096\n7:0 Discard 0\n7:0 Total 4096\nTotal 1331200\n"
	ops := "254:0 Read 12\n254:0 Write 312\n254:0 Sync 324\n254:0 Async 0\n254:0 Discard 0\n254:0 Total 324\n" +
		"7:0 Read 1\n7:0 Write 0\n7:0 Sync 0\n7:0 Async 1\n7:0 Discard 0\n7:0 Total 1\nTotal 325\n"
	got, err := parseBlkioV1([]byte(bytes), []byte(ops))
	if err != nil {
		t.Fatal(err)
	}
	want := []ioStat{{Dev: "254:0", RBytes: 49152, WBytes: 1277952, RIOs: 12, WIOs: 312}, {Dev: "7:0", RBytes: 4096, RIOs: 1}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if got, err := parseBlkioV1([]byte("Total 0\n"), []byte("Total 0\n")); err != nil || len(got) != 0 {
		t.Errorf("no I/O yet: %+v %v", got, err)
	}
	for _, bad := range []string{"254:0 Read many\n", "vda Read 1\n"} {
		if _, err := parseBlkioV1([]byte(bad), nil); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// One fuzz input feeds every block I/O parser: none may panic, and what
// they accept names devices as major:minor and limits by a known kind.
func FuzzParseBlkioFiles(f *testing.F) {
	f.Add([]byte("8:16 rbps=2097152 wbps=max riops=max wiops=120\n"))
	f.Add([]byte("254:0 80\n"))
	f.Add([]byte("254:0 Read 12\n254:0 Write 312\nTotal 324\n"))
	f.Add([]byte("8:0 rbytes=10 wbytes=20 rios=1 wios=2 dbytes=0 dios=0 cost.vrate=100.00 depth=max\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ls, err := parseIOMax(b)
		if err == nil {
			for _, l := range ls {
				if !isDevNum(l.Dev) || l.Kind < 0 || l.Kind >= len(ioKinds) {
					t.Errorf("io.max %q gave %+v", b, l)
				}
			}
		}
		if ls, err := parseThrottleDevice(b, 1); err == nil {
			for _, l := range ls {
				if !isDevNum(l.Dev) || l.Kind != 1 {
					t.Errorf("throttle file %q gave %+v", b, l)
				}
			}
		}
		for _, parse := range []func([]byte) ([]ioStat, error){parseIOStat, func(b []byte) ([]ioStat, error) { return parseBlkioV1(b, b) }} {
			if st, err := parse(b); err == nil {
				for _, s := range st {
					if !isDevNum(s.Dev) {
						t.Errorf("%q gave device %q", b, s.Dev)
					}
				}
			}
		}
	})
}
