package tool

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

type echoIn struct {
	Word  string `json:"word" jsonschema:"a word"`
	Count int    `json:"count,omitempty" jsonschema:"repeat count"`
	Sleep int    `json:"sleep_ms,omitempty" jsonschema:"sleep before answering"`
}

type echoOut struct {
	Words []string `json:"words"`
}

// memHandles is a HandleSink over a map, standing in for the store.
type memHandles struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (h *memHandles) put(_ context.Context, typ string, _ map[string]any, payload []byte) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.m == nil {
		h.m = map[string][]byte{}
	}
	id := "H_" + typ + "_1"
	h.m[id] = append([]byte(nil), payload...)
	return id, nil
}

func echoDef() *Def {
	return New(Spec{Name: "echo", Title: "Echo", Description: "Repeat a word.", Kind: ReadOnly, Timeout: 300 * time.Millisecond},
		func(ctx context.Context, c *Call, in echoIn) (echoOut, error) {
			if in.Sleep > 0 {
				if err := Sleep(ctx, time.Duration(in.Sleep)*time.Millisecond); err != nil {
					return echoOut{}, err
				}
			}
			if in.Word == "fail" {
				return echoOut{}, Errorf(NotFound, "no such word").WithSuggestion("try another word")
			}
			if in.Word == "panic" {
				panic("boom")
			}
			if in.Word == "warn" {
				c.Warn("careful")
			}
			n := max(in.Count, 1)
			out := echoOut{}
			for range n {
				out.Words = append(out.Words, in.Word)
			}
			return out, nil
		}).WithRange("count", 0, 100000)
}

func TestRunEnvelope(t *testing.T) {
	h := &memHandles{}
	r := &Runner{Host: "h1", Version: "v1", Handles: h.put, Limits: func(Spec) Limits {
		return Limits{Timeout: 300 * time.Millisecond, OutputCap: 1024}
	}}
	tests := []struct {
		name      string
		args      string
		wantOK    bool
		wantCode  Code
		wantTrunc bool
		wantWarn  bool
	}{
		{"ok", `{"word":"hi"}`, true, "", false, false},
		{"warning", `{"word":"warn"}`, true, "", false, true},
		{"tool error", `{"word":"fail"}`, false, NotFound, false, false},
		{"missing required", `{}`, false, InvalidParams, false, false},
		{"unknown field", `{"word":"x","bogus":1}`, false, InvalidParams, false, false},
		{"wrong type", `{"word":3}`, false, InvalidParams, false, false},
		{"out of range", `{"word":"x","count":-1}`, false, InvalidParams, false, false},
		{"not an object", `[1]`, false, InvalidParams, false, false},
		{"null args", `null`, false, InvalidParams, false, false},
		{"panic", `{"word":"panic"}`, false, Internal, false, false},
		{"timeout", `{"word":"x","sleep_ms":5000}`, false, Timeout, false, false},
		{"over cap", `{"word":"abcdefgh","count":500}`, true, "", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res := r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(tc.args)})
			env := res.Envelope
			if env.Success != tc.wantOK {
				t.Fatalf("success = %v, want %v (%s)", env.Success, tc.wantOK, res.JSON)
			}
			if p := res.Provenance; p.Tool != "echo" || p.Host != "h1" || p.ToolVersion != "v1" || p.Timestamp == "" || p.DurationMS != res.Duration.Milliseconds() {
				t.Errorf("provenance wrong: %+v", p)
			}
			// The provenance is for _meta: the model's answer holds none of it.
			var members map[string]json.RawMessage
			if err := json.Unmarshal(res.JSON, &members); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"tool", "tool_version", "timestamp", "duration_ms", "host"} {
				if _, ok := members[k]; ok {
					t.Errorf("the answer carries %q: %s", k, res.JSON)
				}
			}
			if tc.wantCode != "" {
				if res.Err == nil || res.Err.Code != tc.wantCode || env.Error == nil || env.Error.Code != string(tc.wantCode) {
					t.Fatalf("error = %+v, want code %s", env.Error, tc.wantCode)
				}
				if env.Error.Suggestion == "" || env.Error.Message == "" {
					t.Errorf("error lacks message or suggestion: %+v", env.Error)
				}
				if env.Data != nil {
					t.Errorf("failed call carries data: %s", env.Data)
				}
			}
			if env.Truncated != tc.wantTrunc {
				t.Errorf("truncated = %v, want %v", env.Truncated, tc.wantTrunc)
			}
			if (len(env.Warnings) > 0) != tc.wantWarn {
				t.Errorf("warnings = %v, want some: %v", env.Warnings, tc.wantWarn)
			}
			if len(res.JSON) > 4096 {
				t.Errorf("envelope is %d bytes, over the cap's reach", len(res.JSON))
			}
		})
	}
}

func TestTruncatedPayloadIsWholeInHandle(t *testing.T) {
	h := &memHandles{}
	r := &Runner{Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 2048} }}
	res := r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"abc","count":1000}`)})
	env := res.Envelope
	if !env.Truncated || env.Handle == "" || env.Data != nil {
		t.Fatalf("want truncated with handle and no data: %s", res.JSON)
	}
	full := h.m[env.Handle]
	var got echoOut
	if err := json.Unmarshal(full, &got); err != nil {
		t.Fatalf("handle payload is not the data: %v", err)
	}
	if len(got.Words) != 1000 {
		t.Errorf("handle holds %d words, want 1000", len(got.Words))
	}
	var preview echoOut
	if err := json.Unmarshal(env.DataPreview, &preview); err != nil || len(preview.Words) == 0 || len(preview.Words) >= 1000 {
		t.Errorf("data_preview is not the first words: %v %s", err, env.DataPreview)
	}
}

func TestHandlerIgnoringContextIsAbandoned(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	d := New(Spec{Name: "stuck", Title: "Stuck", Description: "Never returns.", Kind: ReadOnly},
		func(ctx context.Context, c *Call, in struct{}) (struct{}, error) {
			<-release
			return struct{}{}, nil
		})
	r := &Runner{Grace: 50 * time.Millisecond, Limits: func(Spec) Limits { return Limits{Timeout: 100 * time.Millisecond, OutputCap: 1024} }}
	start := time.Now()
	res := r.Run(context.Background(), Invocation{Def: d})
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("call took %s, want about 150ms", took)
	}
	if res.Err == nil || res.Err.Code != Timeout {
		t.Fatalf("want TIMEOUT, got %s", res.JSON)
	}
}

func TestCancellationReachesHandler(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	r := &Runner{}
	res := r.Run(ctx, Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"x","sleep_ms":250}`)})
	if res.Err == nil || res.Err.Code != Cancelled {
		t.Fatalf("want CANCELLED, got %s", res.JSON)
	}
}

func TestAnnotationsFromKind(t *testing.T) {
	f, tr := false, true
	tests := []struct {
		kind       Kind
		idempotent bool
		want       [4]*bool // readOnly, destructive, idempotent, openWorld
	}{
		{ReadOnly, false, [4]*bool{&tr, &f, &tr, &f}},
		{Mutating, false, [4]*bool{&f, &f, &f, &f}},
		{Mutating, true, [4]*bool{&f, &f, &tr, &f}},
		{Destructive, false, [4]*bool{&f, &tr, &f, &f}},
	}
	for _, tc := range tests {
		t.Run(tc.kind.String(), func(t *testing.T) {
			a := annotations("T", tc.kind, tc.idempotent)
			got := [4]bool{a.ReadOnlyHint, *a.DestructiveHint, a.IdempotentHint, *a.OpenWorldHint}
			want := [4]bool{*tc.want[0], *tc.want[1], *tc.want[2], *tc.want[3]}
			if diff := cmp.Diff(want, got); diff != "" || a.Title != "T" {
				t.Errorf("annotations (-want +got):\n%s", diff)
			}
			js, _ := json.Marshal(a)
			for _, k := range []string{"title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"} {
				if !strings.Contains(string(js), `"`+k+`"`) {
					t.Errorf("%s missing from %s", k, js)
				}
			}
		})
	}
}

func TestNewRejectsMalformedDefs(t *testing.T) {
	h := func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil }
	for name, spec := range map[string]Spec{
		"no kind":   {Name: "a", Title: "A", Description: "d"},
		"bad name":  {Name: "a.b", Title: "A", Description: "d", Kind: ReadOnly},
		"no title":  {Name: "a", Description: "d", Kind: ReadOnly},
		"long name": {Name: strings.Repeat("a", 65), Title: "A", Description: "d", Kind: ReadOnly},
		"capital":   {Name: "Fs_read", Title: "A", Description: "d", Kind: ReadOnly},
		"digit":     {Name: "1fs", Title: "A", Description: "d", Kind: ReadOnly},
		"empty":     {Name: "", Title: "A", Description: "d", Kind: ReadOnly},
		"dash":      {Name: "fs-read", Title: "A", Description: "d", Kind: ReadOnly},
	} {
		t.Run(name, func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Error("New did not panic")
				}
			}()
			New(spec, h)
		})
	}
}

// Names of 1 to 64 characters of [a-z0-9_], starting with a letter, are
// taken.
func TestNewTakesWellFormedNames(t *testing.T) {
	h := func(context.Context, *Call, struct{}) (struct{}, error) { return struct{}{}, nil }
	for _, name := range []string{"a", "fs_read", "perf_top10", strings.Repeat("a", 64)} {
		New(Spec{Name: name, Title: "A", Description: "d", Kind: ReadOnly}, h)
	}
}

func TestEveryCodeHasSuggestion(t *testing.T) {
	for _, c := range Codes() {
		if catalogue[c].suggestion == "" {
			t.Errorf("%s has no suggestion", c)
		}
	}
}

// A wrong argument name is answered with the names the tool takes, so that
// the agent can fix it in one retry.
func TestUnknownArgumentNamesTheKnownOnes(t *testing.T) {
	r := &Runner{Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 4096} }}
	res := r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"x","max_results":3,"bogus":1}`)})
	if res.Err == nil || res.Err.Code != InvalidParams {
		t.Fatalf("want INVALID_PARAMS: %s", res.JSON)
	}
	want := "unknown argument bogus, max_results: this tool takes only count, sleep_ms, word"
	if res.Err.Message != want {
		t.Errorf("message %q, want %q", res.Err.Message, want)
	}
	res = r.Run(context.Background(), Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":3}`)})
	if res.Err == nil || strings.Contains(res.Err.Message, "validating root") {
		t.Errorf("schema errors lose the validator's prefix: %+v", res.Err)
	}
}
