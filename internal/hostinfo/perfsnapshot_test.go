package hostinfo

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// readPair reads a fixture captured twice from a live host (testdata/
// perf-pair, see its README entry) and dates the readings 2 s apart, so the
// expected rates below are the files' deltas over 2, worked out by hand.
func readPair(t *testing.T) (a, b Counters, g Gauges) {
	t.Helper()
	t0 := time.Unix(1_000_000, 0)
	read := func(dir string, at time.Time) (Counters, Gauges) {
		h := New(Roots{Proc: dir + "/proc", Sys: dir + "/sys", RootFS: dir})
		c, w, err := h.ReadCounters(nil)
		if err != nil || len(w) > 0 {
			t.Fatalf("%s counters: %v %q", dir, err, w)
		}
		g, w, err := h.ReadGauges(nil)
		if err != nil || len(w) > 0 {
			t.Fatalf("%s gauges: %v %q", dir, err, w)
		}
		return c.At(at), g
	}
	a, _ = read("testdata/perf-pair/a", t0)
	b, g = read("testdata/perf-pair/b", t0.Add(2*time.Second))
	return a, b, g
}

// The pair was taken with a busy loop, a direct-I/O dd writing to vda and a
// TCP stream over lo running.
func TestPerfSnapshotFixture(t *testing.T) {
	t.Parallel()
	a, b, g := readPair(t)
	s := BuildPerfSnapshot(SnapshotInput{Before: a, After: b, Gauges: g})

	if s.IntervalMS != 2000 || s.CPU.Count != 2 || s.CPU.LoadAvg != [3]float64{2.39, 1.94, 1.86} {
		t.Errorf("interval, CPUs, load: %d %d %v", s.IntervalMS, s.CPU.Count, s.CPU.LoadAvg)
	}
	// cpu line deltas: user 256, system 316 of 599 jiffies, no idle.
	if u := s.CPU.Utilization; u.Busy != 100 || u.User != 42.74 || u.System != 52.75 || u.Idle != 0 {
		t.Errorf("cpu split: %+v", u)
	}
	if s.CPU.ContextSwitches != 15601.5 || s.Memory.PageFaults != 29264.5 || s.Memory.MajorFaults != 3 {
		t.Errorf("ctxt/s %v, faults/s %v, major/s %v", s.CPU.ContextSwitches, s.Memory.PageFaults, s.Memory.MajorFaults)
	}
	// Only vda moved: the loop devices and zram0 are idle, and partitions
	// would be left out.
	if len(s.IO.Devices) != 1 {
		t.Fatalf("devices: %+v", s.IO.Devices)
	}
	want := IODevice{Name: "vda", ReadsPerSec: 37.5, WritesPerSec: 3464.5, ReadBytesPerSec: 174080, WriteBytesPerSec: 226211840,
		AvgQueueSize: 0.94, Utilization: 79, ReadAwaitMS: 0.64, WriteAwaitMS: 0.24, AvgWaitMS: 0.24}
	if diff := cmp.Diff(want, s.IO.Devices[0]); diff != "" {
		t.Errorf("vda like iostat -x (-want +got):\n%s", diff)
	}
	var lo *NetInterface
	for i := range s.Network.Interfaces {
		if s.Network.Interfaces[i].Name == "lo" {
			lo = &s.Network.Interfaces[i]
		}
	}
	if lo == nil || lo.RxBytes != 820499805 || lo.TxBytes != 820499805 || lo.SpeedMbps != 0 {
		t.Errorf("lo: %+v", lo)
	}
	// Tcp OutSegs 49602 -> 84112, RetransSegs 37 -> 45.
	if tcp := s.Network.TCP; tcp.OutSegs != 17255 || tcp.Retransmits != 4 || tcp.RetransmitPercent != 0.02 || tcp.CurrEstab != 2 || tcp.ActiveConnections != 0.5 {
		t.Errorf("tcp: %+v", tcp)
	}
	// PSI over the 2 s: io some total 258574394 -> 259238725 µs, full
	// 153201269 -> 153202127; cpu some grew 2993294 µs, more than the 2 s
	// the readings are dated apart (they were taken 2.9 s apart), so 100%.
	wantIO := PSIWindow{SomePercent: 33.22, FullPercent: 0.04, SomeStallUS: 664331, FullStallUS: 858, SomeTotalUS: 259238725, FullTotalUS: 153202127,
		SomeAvg10: 8.8, SomeAvg60: 2.79, FullAvg10: 1.01, FullAvg60: 0.79}
	if s.Pressure == nil || s.Pressure.CPU.SomeAvg10 != 51.8 || s.Pressure.CPU.SomePercent != 100 || s.Pressure.CPU.SomeStallUS != 2993294 {
		t.Errorf("pressure: %+v", s.Pressure)
	} else if diff := cmp.Diff(wantIO, s.Pressure.IO); diff != "" {
		t.Errorf("io pressure (-want +got):\n%s", diff)
	}
}

// The same pair read the other way round (counters going backwards, as
// after a reset) gives zero rates, not huge wrapped ones.
func TestPerfSnapshotCountersBackwards(t *testing.T) {
	t.Parallel()
	a, b, g := readPair(t)
	s := BuildPerfSnapshot(SnapshotInput{Before: b.At(a.Time), After: a.At(b.Time), Gauges: g})
	if s.CPU.ContextSwitches != 0 || s.IO.Devices[0].WritesPerSec != 0 || s.Network.TCP.OutSegs != 0 || s.CPU.Utilization.Idle != 100 {
		t.Errorf("backwards counters: cpu %+v, ctxt %v, io %+v, tcp %+v", s.CPU.Utilization, s.CPU.ContextSwitches, s.IO.Devices, s.Network.TCP)
	}
}

// perf_net_health over the same pair: lo's packet rates, TCP's retransmit
// share (8 of 34510 segments) and the socket counts.
func TestNetHealthFixture(t *testing.T) {
	t.Parallel()
	a, b, g := readPair(t)
	nh, err := BuildNetHealth(a, b, g, "lo", true)
	if err != nil {
		t.Fatal(err)
	}
	if len(nh.Interfaces) != 1 || nh.Interfaces[0].Name != "lo" || nh.Interfaces[0].RxPacketsPerS != 17029.5 || nh.Interfaces[0].TxPacketsPerS != 17029.5 {
		t.Errorf("lo: %+v", nh.Interfaces)
	}
	if tcp := nh.TCP; tcp == nil || tcp.RetransmitPercent != 0.02 || tcp.RetransSegsPerS != 4 || tcp.OutSegsPerS != 17255 || tcp.CurrEstab != 2 || tcp.ListenDrops != 0 {
		t.Errorf("tcp: %+v", nh.TCP)
	}
	if nh.Sockets["TCP.inuse"] != 4 || nh.Sockets["TCP.tw"] != 2 {
		t.Errorf("sockets: %v", nh.Sockets)
	}
	if _, err := BuildNetHealth(a, b, g, "nope0", false); err == nil {
		t.Error("an unknown interface was accepted")
	}
}
