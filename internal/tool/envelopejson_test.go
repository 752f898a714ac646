package tool

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// Envelope.JSON gives the very bytes MarshalJSON gives, whatever the
// envelope holds, hostile strings included.
func TestEnvelopeJSONIsMarshalJSON(t *testing.T) {
	data, err := MarshalJSON(map[string]any{"content": "\tfunc main() {\n\t\tfmt.Println(\"<a & b>\", `,\"data\":0`)\n}\n", "n": 3})
	if err != nil {
		t.Fatal(err)
	}
	head := Envelope{Success: true}
	cases := map[string]Envelope{}
	e := head
	e.Data = data
	cases["data"] = e
	e.Warnings = []string{`a warning with ,"data":0 in it`, "<two>"}
	cases["data and warnings"] = e
	e = head
	e.Success, e.Error = false, &ErrorInfo{Code: string(NotFound), Message: `no "x"`, Recoverable: true}
	cases["error"] = e
	e = head
	e.Truncated, e.Handle, e.DataPreview = true, "H_x", json.RawMessage(`{"a":[1]}`)
	e.PreviewCounts = []PreviewCount{{Path: "a", Kept: 1, Total: 9}}
	cases["truncated"] = e
	e = head
	e.Data = json.RawMessage(`{}`)
	cases["empty data"] = e
	for name, env := range cases {
		t.Run(name, func(t *testing.T) { checkEnvelopeJSON(t, env, name) })
	}
}

// checkEnvelopeJSON holds env.JSON to MarshalJSON's bytes for env.
func checkEnvelopeJSON(t *testing.T, env Envelope, what string) {
	t.Helper()
	want, err := MarshalJSON(env)
	if err != nil {
		t.Fatal(err)
	}
	got, err := env.JSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: got\n%.400s\nwant\n%.400s", what, got, want)
	}
}

// BenchmarkEnvelopeJSON is the envelope of a 200-line file read, encoded
// once more whole (MarshalJSON) and with its data spliced in (JSON), and
// the same bytes as an over-cap answer's preview.
func BenchmarkEnvelopeJSON(b *testing.B) {
	data, err := MarshalJSON(map[string]any{"content": strings.Repeat("\tif err != nil {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n", 100)})
	if err != nil {
		b.Fatal(err)
	}
	// The same bytes as a preview: an over-cap answer's envelope.
	for _, env := range []Envelope{{Success: true, Data: data}, {Success: true, Truncated: true, Handle: "H_x", DataPreview: data}} {
		name := "data"
		if env.Truncated {
			name = "preview"
		}
		b.Run(name+"/MarshalJSON", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := MarshalJSON(env); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(name+"/JSON", func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := env.JSON(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A preview the previewer made is spliced as it is: the bytes are
// MarshalJSON's, hostile strings, cut strings and cut arrays included.
func TestEnvelopeJSONOfAPreviewIsMarshalJSON(t *testing.T) {
	type row struct {
		Path    string `json:"path"`
		Snippet string `json:"snippet"`
		N       int    `json:"n"`
	}
	var rows []row
	for i, s := range hostileStrings() {
		rows = append(rows, row{Path: s, Snippet: strings.Repeat(s+"\t\"<&>\"\n", 1+i%40), N: i})
	}
	data := map[string]any{"hits": rows, "total": len(rows), "note": `,"data_preview":0`}
	for _, capBytes := range []int{1 << 10, 4 << 10, 64 << 10} {
		call := &Call{handles: func(context.Context, string, map[string]any, []byte) (string, error) { return "H_x", nil }}
		var env Envelope
		env.Success = true
		if err := (&Runner{}).setData(context.Background(), call, &env, data, capBytes); err != nil {
			t.Fatal(err)
		}
		if !env.Truncated || len(env.DataPreview) == 0 {
			t.Fatalf("cap %d: no preview (truncated %v)", capBytes, env.Truncated)
		}
		checkEnvelopeJSON(t, env, fmt.Sprintf("cap %d", capBytes))
	}
}
