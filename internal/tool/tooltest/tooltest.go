// Package tooltest calls tools in tests the way the server does: through
// the framework's runner, with the answer checked against the tool's
// outputSchema before its data is decoded.
package tooltest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// Run calls d with args (anything that marshals to a JSON object, or a
// json.RawMessage) for the MCP session named session, and decodes the
// data of a successful answer into Out.
func Run[Out any](t testing.TB, ctx context.Context, d *tool.Def, session string, args any) (Out, *tool.Error) {
	t.Helper()
	return run[Out](t, ctx, tool.Invocation{Def: d, Session: session}, args)
}

// MustRunStarted is MustRun for a tool that reports progress: started runs
// (in its own goroutine) at the first progress notification, which the
// trace tools send once their probes are attached. A test starts the
// workload there, so the trace sees all of it however slowly it attached.
func MustRunStarted[Out any](t testing.TB, ctx context.Context, d *tool.Def, args any, started func()) Out {
	t.Helper()
	var once sync.Once
	progress := func(context.Context, float64, float64, string) { once.Do(func() { go started() }) }
	out, terr := run[Out](t, ctx, tool.Invocation{Def: d, Session: "test", Progress: progress}, args)
	if terr != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, terr.Code, terr.Message)
	}
	return out
}

func run[Out any](t testing.TB, ctx context.Context, inv tool.Invocation, args any) (Out, *tool.Error) {
	t.Helper()
	d := inv.Def
	raw, ok := args.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = json.Marshal(args); err != nil {
			t.Fatal(err)
		}
	}
	inv.Args = raw
	handles := &memHandles{m: map[string][]byte{}}
	res := (&tool.Runner{Handles: handles.put}).Run(ctx, inv)
	if err := tool.ValidateEnvelope(d, res.JSON); err != nil {
		t.Fatalf("%s: answer does not match outputSchema: %v\n%s", d.Spec.Name, err, res.JSON)
	}
	var out Out
	if res.Err == nil {
		data := res.Envelope.Data
		if res.Envelope.Truncated { // over the output cap: the whole answer is in the handle
			data = handles.m[res.Envelope.Handle]
		}
		if err := json.Unmarshal(data, &out); err != nil {
			t.Fatalf("%s: data: %v", d.Spec.Name, err)
		}
	}
	return out, res.Err
}

// memHandles keeps a call's handles, as the store would.
type memHandles struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (h *memHandles) put(_ context.Context, typ string, _ map[string]any, payload []byte) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	id := fmt.Sprintf("H_%s_test_%d", typ, len(h.m))
	h.m[id] = payload
	return id, nil
}

// MustRun is Run for calls that must succeed.
func MustRun[Out any](t testing.TB, ctx context.Context, d *tool.Def, args any) Out {
	t.Helper()
	out, terr := Run[Out](t, ctx, d, "test", args)
	if terr != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, terr.Code, terr.Message)
	}
	return out
}

// MustRunWatched is MustRun with each progress notification the call sends
// handed to onProgress, in the tool's goroutine, before the tool goes on: a
// notification received proves the tool had not finished its work then
// (a trace, still attached). onProgress must not block.
func MustRunWatched[Out any](t testing.TB, ctx context.Context, d *tool.Def, args any, onProgress func(progress, total float64)) Out {
	t.Helper()
	progress := func(_ context.Context, p, total float64, _ string) { onProgress(p, total) }
	out, terr := run[Out](t, ctx, tool.Invocation{Def: d, Session: "test", Progress: progress}, args)
	if terr != nil {
		t.Fatalf("%s(%v): %s: %s", d.Spec.Name, args, terr.Code, terr.Message)
	}
	return out
}
