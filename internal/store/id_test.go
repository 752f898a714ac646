package store

import (
	"strings"
	"testing"
	"time"
)

func TestNewID(t *testing.T) {
	now := time.Date(2026, 11, 22, 2, 45, 0, 0, time.FixedZone("CET", 3600))
	tests := []struct {
		typ        string
		wantPrefix string
	}{
		{"fs_read", "H_fsread_20261122T014500Z_"},
		{"search-content", "H_searchconten_20261122T014500Z_"},
		{"Result", "H_result_20261122T014500Z_"},
		{"", "H_data_20261122T014500Z_"},
		{"___", "H_data_20261122T014500Z_"},
		{"é/ü", "H_data_20261122T014500Z_"},
		{"x'; DROP TABLE handles;--", "H_xdroptableha_20261122T014500Z_"},
	}
	for _, tc := range tests {
		t.Run(tc.typ, func(t *testing.T) {
			got, err := newID(tc.typ, now)
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(got, tc.wantPrefix) {
				t.Errorf("newID(%q) = %q, want prefix %q", tc.typ, got, tc.wantPrefix)
			}
			if !validID(got) {
				t.Errorf("newID(%q) = %q, which validID rejects", tc.typ, got)
			}
		})
	}
}

// IDs of one type made in one second differ by their 32 random bits. A
// thousand of them hold one repeat about once in 8,600 runs (the birthday
// bound: the put that meets one chooses again), which failed this test
// once; two repeats, about once in a hundred million runs, mean the bits
// are not random.
func TestNewIDRandom(t *testing.T) {
	now := time.Now()
	seen := map[string]bool{}
	var repeats []string
	for range 1000 {
		id, err := newID("t", now)
		if err != nil {
			t.Fatal(err)
		}
		if seen[id] {
			repeats = append(repeats, id)
		}
		seen[id] = true
	}
	if len(repeats) > 1 {
		t.Fatalf("newID repeated %v in 1000 IDs", repeats)
	}
}

func TestValidID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"H_fsread_20261122T024500Z_9f3a1c2b", true},
		{"H_a_20261122T024500Z_00000000", true},
		{"H_abcdefghijkl_20261122T024500Z_9f3a1c2b", true},
		{"", false},
		{"H_", false},
		{"H__20261122T024500Z_9f3a1c2b", false},
		{"H_abcdefghijklm_20261122T024500Z_9f3a1c2b", false},
		{"H_FSREAD_20261122T024500Z_9f3a1c2b", false},
		{"H_fsread_20261122T024500Z_9F3A1C2B", false},
		{"H_fsread_20261122T024500Z_9f3a1c2", false},
		{"H_fsread_20261122T024500_9f3a1c2b", false},
		{"H_fsread_20261122T024500Z_9f3a1c2b\n", false},
		{" H_fsread_20261122T024500Z_9f3a1c2b", false},
		{"H_fsread_20261122T024500Z_9f3a1c2b' OR '1'='1", false},
	}
	for _, tc := range tests {
		t.Run(tc.id, func(t *testing.T) {
			if got := validID(tc.id); got != tc.want {
				t.Errorf("validID(%q) = %v, want %v", tc.id, got, tc.want)
			}
		})
	}
}
