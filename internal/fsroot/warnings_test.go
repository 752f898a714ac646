package fsroot

import (
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

func TestWarnings(t *testing.T) {
	tests := []struct {
		name  string
		roots []config.Root
		links string
		want  []string // a substring of each warning, in order
	}{
		{"ordinary", []config.Root{{Path: "/srv/data"}}, "1\n", nil},
		{"slash", []config.Root{{Path: "/", ReadOnly: true}}, "1\n", []string{"root / (read-only) gives"}},
		{"kernel trees", []config.Root{{Path: "/proc"}, {Path: "/sys/kernel"}, {Path: "/dev"}, {Path: "/procfs"}}, "1\n", []string{"/proc (read-write) is in /proc", "/sys/kernel (read-write) is in /sys", "/dev (read-write) is in /dev"}},
		{"symlinked", []config.Root{{Path: "/srv/real", Given: "/srv/link"}}, "1\n", []string{"root /srv/link is a symbolic link to /srv/real"}},
		{"unprotected hard links", []config.Root{{Path: "/srv/data"}}, "0\n", []string{"fs.protected_hardlinks is not 1"}},
		{"unknown hard link setting", []config.Root{{Path: "/srv/data"}}, "", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Warnings(tc.roots, tc.links)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d warnings, want %d: %q", len(got), len(tc.want), got)
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("warning %d = %q, want it to say %q", i, got[i], w)
				}
			}
		})
	}
}
