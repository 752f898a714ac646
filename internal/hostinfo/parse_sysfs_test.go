package hostinfo

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseBracketed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		in           string
		wantSelected string
		wantChoices  []string
		wantErr      bool
	}{
		{name: "thp madvise", in: "always [madvise] never\n", wantSelected: "madvise", wantChoices: []string{"always", "madvise", "never"}},
		{name: "thp never", in: "always madvise [never]", wantSelected: "never", wantChoices: []string{"always", "madvise", "never"}},
		{name: "defrag five choices", in: "always defer defer+madvise [madvise] never",
			wantSelected: "madvise", wantChoices: []string{"always", "defer", "defer+madvise", "madvise", "never"}},
		{name: "nothing selected", in: "always madvise never", wantErr: true},
		{name: "two selected", in: "[always] [never]", wantErr: true},
		{name: "empty brackets are not a choice", in: "[] always", wantErr: true},
		{name: "empty", in: "", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			selected, choices, err := parseBracketed([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseBracketed error = %v, wantErr %v", err, tc.wantErr)
			}
			if selected != tc.wantSelected {
				t.Errorf("selected = %q, want %q", selected, tc.wantSelected)
			}
			if diff := cmp.Diff(choices, tc.wantChoices); diff != "" {
				t.Errorf("choices mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func TestParseCPUList(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		in      string
		want    []int
		wantErr bool
	}{
		{name: "single", in: "0\n", want: []int{0}},
		{name: "range", in: "0-3", want: []int{0, 1, 2, 3}},
		{name: "mixed", in: "0-1,4,6-7\n", want: []int{0, 1, 4, 6, 7}},
		{name: "empty means none", in: "\n", want: nil},
		{name: "reversed range", in: "3-1", wantErr: true},
		{name: "negative", in: "-1", wantErr: true},
		{name: "garbage", in: "0,x", wantErr: true},
		{name: "trailing comma", in: "0,", wantErr: true},
		{name: "absurdly large", in: "0-9223372036854775807", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, err := parseCPUList([]byte(tc.in))
			if (err != nil) != tc.wantErr {
				t.Fatalf("parseCPUList error = %v, wantErr %v", err, tc.wantErr)
			}
			if diff := cmp.Diff(got, tc.want); diff != "" {
				t.Errorf("parseCPUList mismatch (-got +want):\n%s", diff)
			}
		})
	}
}

func FuzzParseBracketed(f *testing.F) {
	f.Add([]byte("always [madvise] never\n"))
	f.Add([]byte("[never]"))
	f.Fuzz(func(t *testing.T, b []byte) {
		selected, choices, err := parseBracketed(b)
		if err != nil {
			return
		}
		if selected == "" || len(choices) == 0 {
			t.Errorf("parseBracketed(%q) = %q, %q without an error", b, selected, choices)
		}
	})
}

func FuzzParseCPUList(f *testing.F) {
	f.Add([]byte("0-1,4,6-7\n"))
	f.Add([]byte("0-65535"))
	f.Fuzz(func(t *testing.T, b []byte) {
		ids, err := parseCPUList(b)
		if err == nil && len(ids) > maxListEntries {
			t.Errorf("%d entries, more than the bound %d", len(ids), maxListEntries)
		}
	})
}
