package tool

import (
	"context"
	"encoding/json"
	"fmt"
)

// CallFor runs the served tool name through c and decodes its data into T:
// the one way a tool whose work is other tools' (the system_health flow,
// and hostmcp triage, which share its report) reads their answers. args is
// marshalled to JSON; nil (a nil map too) sends {}. The error names the tool: it did not
// run, it answered with a tool error (which errors.As finds as *Error), or
// its data is not a T. The answer's warnings come back with its data, for
// the caller to pass on.
func CallFor[T any](ctx context.Context, c Caller, name string, args any) (*T, []string, error) {
	raw, err := json.Marshal(args)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: encoding its arguments: %w", name, err)
	}
	if string(raw) == "null" {
		raw = json.RawMessage("{}")
	}
	res, err := c.Call(ctx, name, raw)
	if err != nil {
		return nil, nil, fmt.Errorf("%s did not run: %w", name, err)
	}
	if res.Err != nil {
		return nil, nil, fmt.Errorf("%s: %w", name, res.Err)
	}
	var v T
	if err := json.Unmarshal(res.Envelope.Data, &v); err != nil {
		return nil, res.Envelope.Warnings, fmt.Errorf("%s: unreadable answer: %w", name, err)
	}
	return &v, res.Envelope.Warnings, nil
}
