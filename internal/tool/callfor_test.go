package tool

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// cannedCaller answers every call with one result, and keeps what it was
// asked.
type cannedCaller struct {
	res      Result
	err      error
	name     string
	args     string
	requests int
}

func (c *cannedCaller) Call(_ context.Context, name string, args json.RawMessage) (Result, error) {
	c.name, c.args = name, string(args)
	c.requests++
	return c.res, c.err
}

func TestCallFor(t *testing.T) {
	type out struct {
		N int `json:"n"`
	}
	toolErr := Errorf(NotFound, "no such thing")
	for _, tc := range []struct {
		name         string
		caller       cannedCaller
		args         any
		wantArgs     string
		want         *out
		wantWarnings []string
		wantErr      string
	}{
		{"decoded, with warnings", cannedCaller{res: Result{Envelope: Envelope{Data: json.RawMessage(`{"n":3}`), Warnings: []string{"approximated"}}}},
			map[string]any{"state": "failed"}, `{"state":"failed"}`, &out{N: 3}, []string{"approximated"}, ""},
		{"nil arguments are {}", cannedCaller{res: Result{Envelope: Envelope{Data: json.RawMessage(`{"n":1}`)}}},
			nil, `{}`, &out{N: 1}, nil, ""},
		{"a nil map is {}", cannedCaller{res: Result{Envelope: Envelope{Data: json.RawMessage(`{"n":2}`)}}},
			map[string]any(nil), `{}`, &out{N: 2}, nil, ""},
		{"a tool error", cannedCaller{res: Result{Err: toolErr, Envelope: Envelope{Warnings: []string{"dropped"}}}},
			nil, `{}`, nil, nil, "sys_x: NOT_FOUND: no such thing"},
		{"not run", cannedCaller{err: errors.New("unknown tool")},
			nil, `{}`, nil, nil, "sys_x did not run: unknown tool"},
		{"unreadable data", cannedCaller{res: Result{Envelope: Envelope{Data: json.RawMessage(`{"n":"three"}`), Warnings: []string{"w"}}}},
			nil, `{}`, nil, []string{"w"}, "sys_x: unreadable answer: json: cannot unmarshal string into Go struct field out.n of type int"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := tc.caller
			got, warnings, err := CallFor[out](context.Background(), &c, "sys_x", tc.args)
			if c.requests != 1 || c.name != "sys_x" || c.args != tc.wantArgs {
				t.Errorf("called %d times, %s with %s; want once, sys_x with %s", c.requests, c.name, c.args, tc.wantArgs)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("data (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantWarnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
			if gotErr := ""; err != nil {
				gotErr = err.Error()
				if gotErr != tc.wantErr {
					t.Errorf("error %q, want %q", gotErr, tc.wantErr)
				}
			} else if tc.wantErr != "" {
				t.Errorf("no error, want %q", tc.wantErr)
			}
			var te *Error
			if tc.caller.res.Err != nil && (!errors.As(err, &te) || te != toolErr) {
				t.Errorf("errors.As does not find the tool's error in %v", err)
			}
		})
	}
}
