package tool

import (
	"bytes"
	"context"
	"encoding/json"
)

// setData puts data into the envelope, or, when its JSON is over the output
// cap, stores the whole of it as a handle and puts a preview in its place. The
// handle holds indented JSON so that handle_read can page it by lines as well
// as by bytes.
func (r *Runner) setData(ctx context.Context, call *Call, env *Envelope, data any, capBytes int) error {
	js, err := MarshalJSON(data)
	if err != nil {
		return Wrap(Internal, err, "encoding the result: %v", err)
	}
	if len(js) <= capBytes {
		env.Data = js
		return nil
	}
	var full bytes.Buffer
	if err := json.Indent(&full, js, "", " "); err != nil {
		return Wrap(Internal, err, "indenting the result: %v", err)
	}
	id, err := call.PutHandle(ctx, "result", map[string]any{"tool": call.Tool}, full.Bytes())
	if err != nil {
		return err
	}
	preview := previewOf(full.Bytes(), capBytes/2)
	env.Truncated = true
	env.TruncatedAt = len(preview)
	env.DataPreview = string(preview)
	env.Handle = id
	call.Warn("the result is %d bytes, over this tool's output cap of %d bytes: data_preview shows the start and handle %s holds all of it (read with handle_read from byte %d)",
		full.Len(), capBytes, id, len(preview))
	return nil
}

// previewOf cuts b to at most n bytes, at the last line end, so the preview
// is whole lines of indented JSON.
func previewOf(b []byte, n int) []byte {
	if len(b) <= n {
		return b
	}
	cut := b[:n]
	if i := bytes.LastIndexByte(cut, '\n'); i > 0 {
		cut = cut[:i+1]
	}
	return cut
}
