package system

import (
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// A unit name is 1 to 256 characters of systemd's set, checked without a
// counted regexp (whose compiled form cost every start-up 3,000
// allocations).
func TestLogsUnitName(t *testing.T) {
	for _, tc := range []struct {
		unit string
		ok   bool
	}{
		{"nginx.service", true},
		{"getty@tty1.service", true},
		{"user-1000.slice", true},
		{strings.Repeat("a", 256), true},
		{strings.Repeat("a", 257), false},
		{"nginx service", false},
		{"--output=cat", false},
		{"ünit.service", false},
		{"nginx.service\n", false},
	} {
		_, err := parseLogQuery(&logsIn{Unit: tc.unit}, time.Now())
		if got := err == nil; got != tc.ok {
			t.Errorf("unit %q: accepted %v, want %v (%v)", tool.Clip(tc.unit), got, tc.ok, err)
		}
	}
}
