package figures

import "testing"

func TestRound(t *testing.T) {
	tests := []struct {
		got, want float64
	}{
		{Round1(12.349999999999998), 12.3},
		{Round1(0.05), 0.1},
		{Round2(12.349999999999998), 12.35},
		{Round2(2004.1809999999998), 2004.18},
		{Round3(0.10400000000000001), 0.104},
		{Round3(-1.0005), -1.001},
		{Round3(0), 0},
	}
	for i, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("case %d: got %v, want %v", i, tc.got, tc.want)
		}
	}
}

func TestIEC(t *testing.T) {
	tests := []struct {
		n    uint64
		want string
	}{
		{0, "0 B"},
		{1023, "1023 B"},
		{1024, "1.0 KiB"},
		{1536, "1.5 KiB"},
		{64 << 20, "64.0 MiB"},
		{3<<30 + 200<<20, "3.2 GiB"},
		{1 << 60, "1.0 EiB"},
		{^uint64(0), "16.0 EiB"},
	}
	for _, tc := range tests {
		if got := IEC(tc.n); got != tc.want {
			t.Errorf("IEC(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
