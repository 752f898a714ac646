package tool

import (
	"bytes"
	"encoding/json"
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
		t.Run(name, func(t *testing.T) {
			want, err := MarshalJSON(env)
			if err != nil {
				t.Fatal(err)
			}
			got, err := env.JSON()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// BenchmarkEnvelopeJSON is the envelope of a 200-line file read, encoded
// once more whole (MarshalJSON) and with its data spliced in (JSON).
func BenchmarkEnvelopeJSON(b *testing.B) {
	data, err := MarshalJSON(map[string]any{"content": strings.Repeat("\tif err != nil {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n", 100)})
	if err != nil {
		b.Fatal(err)
	}
	env := Envelope{Success: true, Data: data}
	b.Run("MarshalJSON", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := MarshalJSON(env); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("JSON", func(b *testing.B) {
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := env.JSON(); err != nil {
				b.Fatal(err)
			}
		}
	})
}
