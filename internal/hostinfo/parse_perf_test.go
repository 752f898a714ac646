package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The perf_snapshot parsers on the forms kernels print, taken from real
// files, and on what must be refused. Whole files are covered by the
// perf-pair fixture (perfsnapshot_test.go).

func TestParseDiskstatsColumns(t *testing.T) {
	t.Parallel()
	in := "" +
		// 4.18-5.4: 18 columns, with discards.
		"   8       0 sda 10 1 80 5 20 2 160 7 0 9 12 3 0 24 2\n" +
		// 5.5+: 20 columns, with flushes.
		" 254       0 vda 1680269 351508 93936786 733281 3270239 461998 69230104 506785 0 524156 1482350 421341 48 64381440 68373 1234570 173909\n" +
		// Before 4.18: 14 columns.
		"   8       1 sda1 4 0 32 1 6 0 48 2 1 3 3\n"
	got, err := parseDiskstats([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []diskStat{
		{Name: "sda", Reads: 10, ReadsMerged: 1, ReadSectors: 80, ReadTicks: 5, Writes: 20, WritesMerged: 2, WriteSectors: 160, WriteTicks: 7, IOTicks: 9, TimeInQueue: 12, Discards: 3, DiscardSectors: 24, DiscardTick: 2},
		{Name: "vda", Reads: 1680269, ReadsMerged: 351508, ReadSectors: 93936786, ReadTicks: 733281, Writes: 3270239, WritesMerged: 461998, WriteSectors: 69230104, WriteTicks: 506785, IOTicks: 524156, TimeInQueue: 1482350, Discards: 421341, DiscardSectors: 64381440, DiscardTick: 68373},
		{Name: "sda1", Reads: 4, ReadSectors: 32, ReadTicks: 1, Writes: 6, WriteSectors: 48, WriteTicks: 2, InFlight: 1, IOTicks: 3, TimeInQueue: 3},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	for _, bad := range []string{"8 0 sda 1 2 3\n", "8 0 sda 1 2 3 4 5 6 7 8 9 x 11\n"} {
		if _, err := parseDiskstats([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseNetDev(t *testing.T) {
	t.Parallel()
	in := "Inter-|   Receive                                                |  Transmit\n" +
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n" +
		"    lo: 1640999610   25037    0    0    0     0          0         0 1640999610   25037    0    0    0     0       0          0\n" +
		"  eth0:  9000 80 1 2 0 0 0 0 7000 60 3 4 0 5 6 0\n"
	got, err := parseNetDev([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := []netDevStat{
		{Name: "lo", RxBytes: 1640999610, RxPackets: 25037, TxBytes: 1640999610, TxPackets: 25037},
		{Name: "eth0", RxBytes: 9000, RxPackets: 80, RxErrors: 1, RxDropped: 2, TxBytes: 7000, TxPackets: 60, TxErrors: 3, TxDropped: 4, TxColls: 5, TxCarrier: 6},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if _, err := parseNetDev([]byte("eth0: 1 2 3\n")); err == nil {
		t.Error("a short line parsed")
	}
}

func TestParseSNMPAndSockstat(t *testing.T) {
	t.Parallel()
	snmp := "Tcp: RtoAlgorithm RtoMin ActiveOpens RetransSegs CurrEstab\nTcp: 1 200 919 45 2\n\nUdp: InDatagrams\nUdp: 7\n"
	got, err := parseSNMP([]byte(snmp))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{"TcpRtoAlgorithm": 1, "TcpRtoMin": 200, "TcpActiveOpens": 919, "TcpRetransSegs": 45, "TcpCurrEstab": 2, "UdpInDatagrams": 7}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snmp (-want +got):\n%s", diff)
	}
	for _, bad := range []string{"Tcp: A B\nTcp: 1\n", "Tcp: A\nUdp: 1\n", "Tcp: A\nTcp: x\n"} {
		if _, err := parseSNMP([]byte(bad)); err == nil {
			t.Errorf("snmp %q parsed", bad)
		}
	}
	ss, err := parseSockstat([]byte("sockets: used 120\nTCP: inuse 4 orphan 0 tw 2 alloc 6 mem 1\nUDP: inuse 1 mem 0\n"))
	if err != nil || ss["TCP.inuse"] != 4 || ss["TCP.tw"] != 2 || ss["sockets.used"] != 120 || ss["UDP.inuse"] != 1 {
		t.Errorf("sockstat: %v %v", ss, err)
	}
	if _, err := parseSockstat([]byte("TCP: inuse\n")); err == nil {
		t.Error("an odd sockstat line parsed")
	}
}

func TestParsePSI(t *testing.T) {
	t.Parallel()
	st, err := parsePSI([]byte("some avg10=51.80 avg60=29.97 avg300=24.49 total=4173121507\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"))
	if err != nil || st.Some.Avg10 != 51.8 || st.Some.TotalUS != 4173121507 || st.Full == nil || st.Full.Avg60 != 0 {
		t.Errorf("%+v %v", st, err)
	}
	// cpu before 5.13 has no full line.
	st, err = parsePSI([]byte("some avg10=1.00 avg60=2.00 avg300=3.00 total=4\n"))
	if err != nil || st.Full != nil || st.Some.Avg300 != 3 {
		t.Errorf("without full: %+v %v", st, err)
	}
	for _, bad := range []string{"", "full avg10=1\n", "some avg10=101\n", "some avg10\n", "most avg10=1\n", "some avg10=NaN\n"} {
		if _, err := parsePSI([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseCgroupFiles(t *testing.T) {
	t.Parallel()
	cpus, quota, period, err := parseCPUMax([]byte("50000 100000\n"))
	if err != nil || cpus == nil || *cpus != 0.5 || quota != 50000 || period != 100000 {
		t.Errorf("cpu.max quota: %v %d %d %v", cpus, quota, period, err)
	}
	if cpus, _, period, err := parseCPUMax([]byte("max 100000\n")); err != nil || cpus != nil || period != 100000 {
		t.Errorf("cpu.max unlimited: %v %d %v", cpus, period, err)
	}
	for _, bad := range []string{"", "max", "max 0", "x 100000", "1 2 3"} {
		if _, _, _, err := parseCPUMax([]byte(bad)); err == nil {
			t.Errorf("cpu.max %q parsed", bad)
		}
	}
	for in, want := range map[string]int64{"max": -1, "-1": -1, "9223372036854771712": -1, "1073741824\n": 1 << 30} {
		v, err := parseCgroupMax(in)
		if err != nil || (want < 0) != (v == nil) || (v != nil && int64(*v) != want) {
			t.Errorf("limit %q: %v %v", in, v, err)
		}
	}
	io, err := parseIOStat([]byte("254:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n7:0 rbytes=1 wbytes=0 rios=1 wios=0\n"))
	if err != nil || len(io) != 2 || io[0] != (ioStat{Dev: "254:0", RBytes: 4096, WBytes: 8192, RIOs: 1, WIOs: 2}) {
		t.Errorf("io.stat: %+v %v", io, err)
	}
	if _, err := parseIOStat([]byte("sda rbytes=1\n")); err == nil {
		t.Error("io.stat without major:minor parsed")
	}
	v1, err := parseBlkioV1([]byte("254:0 Read 4096\n254:0 Write 8192\nTotal 12288\n"), []byte("254:0 Read 1\n254:0 Write 2\nTotal 3\n"))
	if err != nil || len(v1) != 1 || v1[0] != (ioStat{Dev: "254:0", RBytes: 4096, WBytes: 8192, RIOs: 1, WIOs: 2}) {
		t.Errorf("blkio v1: %+v %v", v1, err)
	}
	cg, err := parseProcCgroup([]byte("12:pids:/user.slice\n2:cpu,cpuacct:/\n1:name=systemd:/init.scope\n0::/init.scope\n"))
	if err != nil || len(cg) != 4 || cg[1].Hierarchy != 2 || !cmp.Equal(cg[1].Controllers, []string{"cpu", "cpuacct"}) || cg[3].Path != "/init.scope" || len(cg[3].Controllers) != 0 {
		t.Errorf("/proc/pid/cgroup: %+v %v", cg, err)
	}
}

// Each fuzz target feeds one input to a family of parsers: none may panic,
// and what they accept must be consistent.
func FuzzParseCountersFiles(f *testing.F) {
	f.Add([]byte(" 254       0 vda 1680269 351508 93936786 733281 3270239 461998 69230104 506785 0 524156 1482350 421341 48 64381440 68373 1234570 173909\n"))
	f.Add([]byte("    lo: 1640999610   25037    0    0    0     0          0         0 1640999610   25037    0    0    0     0       0          0\n"))
	f.Add([]byte("cpu  1 2 3 4 5 6 7 8 0 0\ncpu0 1 2 3 4 5 6 7 8 0 0\nctxt 10\nintr 5 1 2\nprocs_running 2\nprocs_blocked 0\n"))
	f.Add([]byte("pgfault 10\npgmajfault 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if ds, err := parseDiskstats(b); err == nil {
			for _, d := range ds {
				if d.Name == "" {
					t.Errorf("a disk without a name from %q", b)
				}
			}
		}
		_, _ = parseNetDev(b)
		_, _ = parseStat(b)
		_, _ = parseKeyedUints(b)
		_, _ = parseProcIO(b)
	})
}

func FuzzParseNetFiles(f *testing.F) {
	f.Add([]byte("Tcp: ActiveOpens RetransSegs\nTcp: 919 45\n"))
	f.Add([]byte("TCP: inuse 4 orphan 0 tw 2 alloc 6 mem 1\n"))
	f.Add([]byte("some avg10=51.80 avg60=29.97 avg300=24.49 total=4173121507\nfull avg10=0.00 avg60=0.00 avg300=0.00 total=0\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		_, _ = parseSNMP(b)
		_, _ = parseSockstat(b)
		if st, err := parsePSI(b); err == nil && (st.Some.Avg10 < 0 || st.Some.Avg10 > 100) {
			t.Errorf("a pressure of %v%% from %q", st.Some.Avg10, b)
		}
	})
}

func FuzzParseCgroupFiles(f *testing.F) {
	f.Add([]byte("50000 100000\n"))
	f.Add([]byte("254:0 rbytes=4096 wbytes=8192 rios=1 wios=2 dbytes=0 dios=0\n"))
	f.Add([]byte("12:pids:/user.slice\n0::/init.scope\n"))
	f.Add([]byte("35 24 0:30 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if cpus, _, period, err := parseCPUMax(b); err == nil && (period == 0 || (cpus != nil && *cpus < 0)) {
			t.Errorf("cpu.max %q: %v CPUs, period %d", b, cpus, period)
		}
		_, _ = parseIOStat(b)
		_, _ = parseBlkioV1(b, b)
		_, _ = parseProcCgroup(b)
		_, _ = parseCgroupMounts(b)
		_, _ = parseCgroupMax(string(b))
	})
}
