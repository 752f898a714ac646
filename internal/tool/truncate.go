package tool

import (
	"context"
	"fmt"
)

// setData puts data into the envelope, or, when the answer would pass the
// output cap, stores the whole of it as a handle and puts a preview in its
// place. The handle holds indented JSON, one value per line, so that
// handle_read pages it by lines and preview_counts can say on which line
// each cut part continues.
func (r *Runner) setData(ctx context.Context, call *Call, env *Envelope, data any, capBytes int) error {
	js, err := MarshalJSON(data)
	if err != nil {
		return Wrap(Internal, err, "encoding the result: %v", err)
	}
	if call.surelyFits(len(js)) || len(js) <= call.DataBudget() {
		env.Data = js
		return nil
	}
	tree, err := parseJSON(js)
	if err != nil {
		return Wrap(Internal, err, "laying out the result: %v", err)
	}
	full, lines := tree.indent()
	id, err := call.PutHandle(ctx, "result", map[string]any{"tool": call.Tool}, full)
	if err != nil {
		return err
	}
	over := overCap{size: len(js), capBytes: capBytes, handle: id, handleBytes: len(full), lines: lines}
	answer := func(preview []byte, counts []PreviewCount) Envelope {
		e := call.frame(append(call.Warnings(), over.warning(preview != nil, counts)))
		e.Success, e.Truncated, e.Handle, e.DataPreview, e.PreviewCounts = true, true, id, preview, counts
		return e
	}
	pv := &previewer{t: tree}
	preview, counts, ok := pv.fit(func(p []byte, c []PreviewCount) bool {
		// The preview goes into the envelope as it is: measure the rest.
		return answerBytes(answer([]byte("0"), c))-1+len(p) <= capBytes
	}, capBytes)
	if !ok {
		preview, counts = nil, nil
	}
	env.Truncated, env.Handle, env.DataPreview, env.PreviewCounts = true, id, preview, counts
	call.Warn("%s", over.warning(ok, counts))
	return nil
}

// overCap describes a result kept as a handle, for its warning.
type overCap struct {
	size, capBytes     int
	handle             string
	handleBytes, lines int
}

// warning says what the preview holds and gives the exact call that goes
// on where it stops: the handle line where the first array it cut (else
// the first part it cut) continues.
func (o overCap) warning(previewed bool, counts []PreviewCount) string {
	var shown string
	line := 0
	switch {
	case !previewed:
		shown = "data_preview is left out: not even an empty outline of the result fits"
	case len(counts) == 0:
		shown = "data_preview holds all of it"
	default:
		first := counts[0]
		for _, c := range counts {
			if c.Unit == "items" {
				first = c
				break
			}
		}
		shown = fmt.Sprintf("data_preview keeps %d of %d %s at %s (preview_counts lists every cut)", first.Kept, first.Total, first.Unit, first.Path)
		line = first.HandleLine
	}
	return fmt.Sprintf(`the result is %d bytes, over this tool's output cap of %d bytes: %s; handle %s holds all of it as indented JSON (%d lines, %d bytes): continue with handle_read {"handle":%q,"offset":%d,"unit":"lines"}`,
		o.size, o.capBytes, shown, o.handle, o.lines, o.handleBytes, o.handle, line)
}
