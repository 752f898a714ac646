package trace

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// runFitting calls d as the server does, under the default output cap of
// 64 KiB, starting the workload once the programs are attached. The
// answer must fit the cap as it is: not a preview standing in for data
// kept as a handle.
func runFitting[Out any](t *testing.T, d *tool.Def, args map[string]any, started func()) Out {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	progress := func(context.Context, float64, float64, string) { once.Do(func() { go started() }) }
	res := (&tool.Runner{}).Run(context.Background(), tool.Invocation{Def: d, Args: raw, Session: "test", Progress: progress})
	if res.Err != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, res.Err.Code, res.Err.Message)
	}
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("%s: answer does not match outputSchema: %v", d.Spec.Name, err)
	}
	if res.Envelope.Truncated || len(res.JSON) > 64<<10 {
		t.Fatalf("%s: the answer (%d bytes) does not fit the 64 KiB output cap (truncated %v)", d.Spec.Name, len(res.JSON), res.Envelope.Truncated)
	}
	var out Out
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// A script fails to open a missing config file 50 times over a few
// seconds, among 60 times as many opens that succeed: every failure is
// counted, with its errno, for that path and process, as many times as the
// script itself counted; the records listed are a sample of the whole
// window, said to be one, and the answer fits the output cap.
func TestFileOpensCountEveryFailureLive(t *testing.T) {
	s := newSet(t)
	dir := t.TempDir()
	missing, present, counted := filepath.Join(dir, "missing.conf"), filepath.Join(dir, "present.conf"), filepath.Join(dir, "counted")
	if err := os.WriteFile(present, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// Paced by a deadline per failure, so a loaded machine's late wakeups
	// do not add up; it writes down what it counted and how long it took.
	script, start := testutil.GatedPython(t, `import time
missing, present, counted = sys.argv[1], sys.argv[2], sys.argv[3]
failed = opened = 0
begin = time.monotonic()
for i in range(50):
    for _ in range(60):
        open(present).close()
        opened += 1
    try:
        open(missing)
    except FileNotFoundError:
        failed += 1
    time.sleep(max(0, begin + (i + 1) * 0.05 - time.monotonic()))
took = time.monotonic() - begin
with open(counted, "w") as f:
    f.write(f"{failed} {opened} {took}")`, missing, present, counted)
	const window = 8
	out := runFitting[fileOut](t, s.fileTrace(), map[string]any{"duration_seconds": window, "mode": "opens", "pid": script.Process.Pid}, start)
	var failed, opened uint64
	var took float64
	if err := script.Wait(); err != nil {
		t.Fatalf("the script: %v", err)
	}
	b, err := os.ReadFile(counted)
	if err == nil {
		_, err = fmt.Sscan(string(b), &failed, &opened, &took)
	}
	if err != nil {
		t.Fatalf("what the script counted: %q: %v", b, err)
	}
	if took > window-1 {
		t.Fatalf("the script took %.1f s, too long for the %d s window to see all of it", took, window)
	}
	row := func(path string) pathRow {
		i := slices.IndexFunc(out.ByPath, func(r pathRow) bool { return r.Path == path })
		if i < 0 {
			t.Fatalf("no row for %s: %+v", path, out.ByPath)
		}
		return out.ByPath[i]
	}
	miss := row(missing)
	if miss.Count != failed || miss.Failed != failed || miss.Errors["ENOENT"] != failed || len(miss.Errors) != 1 ||
		miss.PID != uint32(script.Process.Pid) || miss.Comm != "python3" || miss.Op != "open" {
		t.Errorf("the script failed %d times to open %s; its row: %+v", failed, missing, miss)
	}
	if ok := row(present); ok.Count != opened || ok.Failed != 0 || ok.Errors != nil {
		t.Errorf("the script opened %s %d times; its row: %+v", present, opened, ok)
	}
	if out.ByPath[0].Path != missing {
		t.Errorf("failures come first: %+v", out.ByPath[0])
	}
	if *out.OpensTotal < failed+opened || *out.OpensFailed < failed || out.NotInTables != 0 {
		t.Errorf("totals: %d opens, %d failed, %d not in tables; the script made %d and %d", *out.OpensTotal, *out.OpensFailed, out.NotInTables, opened+failed, failed)
	}
	shown := *out.OpensOf
	if shown.Shown != len(out.Opens) || shown.Of != int(*out.OpensTotal) || shown.Shown >= shown.Of || shown.How != howSample {
		t.Fatalf("%d records listed of %d opens: %+v", len(out.Opens), *out.OpensTotal, shown)
	}
	// The sample spans the script's run, not its first moments.
	first, last := out.Opens[0].Time, out.Opens[len(out.Opens)-1].Time
	if last-first < 0.7*took || !slices.IsSortedFunc(out.Opens, func(a, b openRow) int { return cmp.Compare(a.Time, b.Time) }) {
		t.Errorf("the records listed span %.2f s of the script's %.2f s", last-first, took)
	}
}

// 600 execs of true by this test, more than the records an answer lists:
// each is counted, under its file and parent, as many times as the test
// ran it; the records are a sample said to be one, and the answer fits the
// output cap.
func TestExecTraceCountsEveryExecLive(t *testing.T) {
	s := newSet(t)
	const runs, window = 600, 15
	var took time.Duration
	out := runFitting[execOut](t, s.execTrace(), map[string]any{"duration_seconds": window, "pid": os.Getpid(), "name_pattern": "^true$"}, func() {
		begin := time.Now()
		for range runs {
			_ = exec.Command("/bin/true").Run()
		}
		took = time.Since(begin)
	})
	if took == 0 || took > (window-1)*time.Second {
		t.Fatalf("%d runs of true took %v, too long for the %d s window", runs, took, window)
	}
	if out.Total != runs || out.Failed != 0 || len(out.ByProgram) != 1 {
		t.Fatalf("%d runs of true: total %d, failed %d, by program %+v", runs, out.Total, out.Failed, out.ByProgram)
	}
	if r := out.ByProgram[0]; r.Filename != "/bin/true" || r.Count != runs || r.PPID != uint32(os.Getpid()) || r.Comm != "true" {
		t.Fatalf("the row of true: %+v", r)
	}
	if shown := out.ExecsOf; shown.Shown != len(out.Execs) || shown.Of != runs || shown.Shown >= runs || shown.How != howSample {
		t.Fatalf("%d execs listed: %+v", len(out.Execs), shown)
	}
}
