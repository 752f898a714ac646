package search

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// BenchmarkContentFixedCost is what every rg search pays whatever it finds:
// one line in one file, run in process by tool.Runner. cpu-us is hostmcp's
// own CPU per call (rg's start under Landlock, the fence, the check, the
// envelope), rg-us the rg it ran.
func BenchmarkContentFixedCost(b *testing.B) {
	testutil.RequireBinary(b, "rg")
	dir := b.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "one.txt"), []byte("alpha\nneedle here\nomega\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	def := setOver(b, dir).content()
	runner := &tool.Runner{}
	raw, _ := json.Marshal(map[string]any{"pattern": "needle", "engine": "rg"})
	s0, c0 := cpuTimes()
	for b.Loop() {
		res := runner.Run(context.Background(), tool.Invocation{Def: def, Args: raw})
		if res.Err != nil {
			b.Fatalf("%s", res.JSON)
		}
	}
	s1, c1 := cpuTimes()
	n := float64(b.N)
	b.ReportMetric(float64((s1-s0).Microseconds())/n, "cpu-us")
	b.ReportMetric(float64((c1-c0).Microseconds())/n, "rg-us")
}
