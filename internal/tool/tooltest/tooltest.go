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

	"github.com/hostmcp/hostmcp/internal/config"
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
	return runWith[Out](t, ctx, &tool.Runner{}, inv, args)
}

func runWith[Out any](t testing.TB, ctx context.Context, r *tool.Runner, inv tool.Invocation, args any) (Out, *tool.Error) {
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
	r.Handles = handles.put
	res := r.Run(ctx, inv)
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

// RunAsked calls d with args as Run does, under a [confirm] policy that
// asks before d's calls when any of conds holds, with a person at the
// client who answers each question with answer (tool.ActionAccept,
// ActionDecline...): n counts the questions from 1. It returns the data
// of a successful answer, the questions asked, and the call's error.
func RunAsked[Out any](t testing.TB, ctx context.Context, d *tool.Def, args any, answer func(n int, q tool.Question) string, conds ...string) (Out, []tool.Question, *tool.Error) {
	t.Helper()
	conf := config.DefaultConfirm()
	conf.Tools = map[string][]string{d.Spec.Name: conds}
	policy, err := tool.NewConfirmPolicy(conf, []*tool.Def{d})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var asked []tool.Question
	ask := func(_ context.Context, q tool.Question) (tool.Answer, error) {
		mu.Lock()
		asked = append(asked, q)
		n := len(asked)
		mu.Unlock()
		return tool.Answer{Action: answer(n, q)}, nil
	}
	out, terr := runWith[Out](t, ctx, &tool.Runner{Confirm: policy}, tool.Invocation{Def: d, Session: "test", Asking: &tool.Asking{Ask: ask}}, args)
	mu.Lock()
	defer mu.Unlock()
	return out, asked, terr
}

// Decline answers every question no.
func Decline(int, tool.Question) string { return tool.ActionDecline }

// Accept answers every question yes.
func Accept(int, tool.Question) string { return tool.ActionAccept }
