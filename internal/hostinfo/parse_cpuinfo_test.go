package hostinfo

import (
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseCPUInfo(t *testing.T) {
	t.Parallel()
	realX86, err := os.ReadFile("testdata/kvm-hybrid/proc/cpuinfo")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		in   string
		want cpuInfo
	}{
		{name: "captured x86 guest", in: string(realX86),
			want: cpuInfo{Model: "Intel(R) Xeon(R) Processor", Processors: 2, Cores: 2, Sockets: 1, Hypervisor: true}},
		{
			name: "two sockets with hyperthreads, bare metal",
			in: "processor\t: 0\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\nflags\t: fpu sse\n\n" +
				"processor\t: 1\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\n\n" +
				"processor\t: 2\nmodel name\t: Xeon\nphysical id\t: 1\ncore id\t: 0\n\n" +
				"processor\t: 3\nmodel name\t: Xeon\nphysical id\t: 1\ncore id\t: 0\n",
			want: cpuInfo{Model: "Xeon", Processors: 4, Cores: 2, Sockets: 2},
		},
		{
			name: "arm64 has no model or topology",
			in:   "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd\nCPU implementer\t: 0x41\n\nprocessor\t: 1\nBogoMIPS\t: 50.00\n",
			want: cpuInfo{Processors: 2},
		},
		{
			name: "riscv uarch",
			in:   "processor\t: 0\nhart\t\t: 0\nisa\t\t: rv64imafdc\nuarch\t\t: sifive,u74-mc\n",
			want: cpuInfo{Model: "sifive,u74-mc", Processors: 1},
		},
		{
			name: "power cpu line",
			in:   "processor\t: 0\ncpu\t\t: POWER9 (architected), altivec supported\nclock\t\t: 2200.000000MHz\n",
			want: cpuInfo{Model: "POWER9 (architected), altivec supported", Processors: 1},
		},
		{name: "empty", in: "", want: cpuInfo{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseCPUInfo([]byte(tc.in))
			if err != nil {
				t.Fatalf("parseCPUInfo: %v", err)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseCPUInfo mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func FuzzParseCPUInfo(f *testing.F) {
	f.Add([]byte("processor\t: 0\nmodel name\t: Xeon\nphysical id\t: 0\ncore id\t: 0\nflags\t: fpu hypervisor\n"))
	f.Add([]byte("processor\t: 0\nuarch\t: sifive\n\nprocessor : 1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ci, err := parseCPUInfo(b)
		if err != nil {
			return
		}
		if ci.Sockets > ci.Cores {
			t.Errorf("%d sockets but %d cores", ci.Sockets, ci.Cores)
		}
	})
}
