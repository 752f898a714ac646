package config

import (
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
)

func TestDurationUnmarshalText(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Duration
		wantErr string
	}{
		{"15s", 15 * time.Second, ""},
		{"1m30s", 90 * time.Second, ""},
		{"250ms", 250 * time.Millisecond, ""},
		{"1h", time.Hour, ""},
		{"0", 0, ""},
		{"-5s", -5 * time.Second, ""}, // parsed; Validate refuses it with the setting's name
		{"10", 0, `has no unit`},
		{"1.5", 0, `has no unit`},
		{"soon", 0, `invalid duration "soon"`},
		{"", 0, `invalid duration ""`},
		{"5 s", 0, `invalid duration`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var d Duration
			err := d.UnmarshalText([]byte(tc.in))
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("UnmarshalText(%q) error = %v, want it to contain %q", tc.in, err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("UnmarshalText(%q): %v", tc.in, err)
			}
			if got := d.Duration; got != tc.want {
				t.Errorf("UnmarshalText(%q) = %s, want %s", tc.in, got, tc.want)
			}
		})
	}
}

func TestDurationRoundTrip(t *testing.T) {
	type doc struct {
		D Duration `toml:"d"`
	}
	for _, want := range []time.Duration{0, time.Millisecond, 90 * time.Second, 26 * time.Hour} {
		b, err := toml.Marshal(doc{D: Duration{want}})
		if err != nil {
			t.Fatal(err)
		}
		var got doc
		if err := toml.Unmarshal(b, &got); err != nil {
			t.Fatalf("unmarshal %q: %v", b, err)
		}
		if got.D.Duration != want {
			t.Errorf("round trip of %s through %q = %s", want, b, got.D.Duration)
		}
	}
}
