package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseLoadavg(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    loadAvg
		wantErr bool
	}{
		{name: "real", in: "0.53 0.40 0.20 4/100 12578\n", want: loadAvg{Load: [3]float64{0.53, 0.40, 0.20}, Runnable: 4, Total: 100}},
		{name: "busy", in: "128.00 64.50 32.25 130/2048 1", want: loadAvg{Load: [3]float64{128, 64.5, 32.25}, Runnable: 130, Total: 2048}},
		{name: "no tasks field", in: "0.53 0.40 0.20", wantErr: true},
		{name: "no slash", in: "0.53 0.40 0.20 4 12578", wantErr: true},
		{name: "not a number", in: "x 0.40 0.20 4/100 1", wantErr: true},
		{name: "NaN", in: "NaN 0.40 0.20 4/100 1", wantErr: true},
		{name: "infinite", in: "0.1 +Inf 0.20 4/100 1", wantErr: true},
		{name: "negative", in: "-1 0.40 0.20 4/100 1", wantErr: true},
		{name: "bad total", in: "0.53 0.40 0.20 4/x 1", wantErr: true},
		{name: "empty", in: "", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseLoadavg([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseLoadavg error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseLoadavg mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestParseUptime(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    float64
		wantErr bool
	}{
		{name: "real", in: "1405.29 2558.63\n", want: 1405.29},
		{name: "one field", in: "12", want: 12},
		{name: "empty", in: " \n", wantErr: true},
		{name: "garbage", in: "soon 1", wantErr: true},
		{name: "NaN", in: "nan 1", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseUptime([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseUptime error = %v, wantErr %v", err, tc.wantErr)
			}
			if got != tc.want {
				t.Errorf("parseUptime = %v, want %v", got, tc.want)
			}
		})
	}
}

func FuzzParseLoadavg(f *testing.F) {
	f.Add([]byte("0.53 0.40 0.20 4/100 12578\n"))
	f.Add([]byte("1e308 1e308 1e308 1/1 1"))
	f.Fuzz(func(t *testing.T, b []byte) {
		la, err := parseLoadavg(b)
		if err != nil {
			return
		}
		for _, v := range la.Load {
			if v < 0 || v != v {
				t.Errorf("load %v accepted, want a non-negative number", v)
			}
		}
	})
}

func FuzzParseUptime(f *testing.F) {
	f.Add([]byte("1405.29 2558.63\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if v, err := parseUptime(b); err == nil && (v < 0 || v != v) {
			t.Errorf("uptime %v accepted", v)
		}
	})
}
