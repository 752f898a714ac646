package hostinfo

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Given the CPU figure, Snapshot neither reads /proc/stat nor waits: a
// tree without it answers at once with that figure, rounded.
func TestSnapshotTakesTheCPUFigureGiven(t *testing.T) {
	proc := t.TempDir()
	for name, body := range map[string]string{
		"meminfo": "MemTotal: 1000 kB\nMemFree: 500 kB\nMemAvailable: 600 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n",
		"loadavg": "0.50 0.40 0.30 3/100 1234\n",
	} {
		if err := os.WriteFile(filepath.Join(proc, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	h := New(Roots{Proc: proc, Sys: t.TempDir()})
	cpu := 42.345
	s, err := h.Snapshot(context.Background(), &SnapshotOptions{CPUPercent: &cpu, Window: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if s.CPUPercent != 42.3 || s.LoadAvg[0] != 0.5 || s.MemTotalBytes != 1000<<10 {
		t.Errorf("snapshot %+v", s)
	}
	if _, err := h.Snapshot(context.Background(), &SnapshotOptions{Window: time.Millisecond}); err == nil {
		t.Error("without the figure, a tree without /proc/stat should fail")
	}
}
