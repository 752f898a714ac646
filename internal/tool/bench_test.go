package tool

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"
)

// BenchmarkRunWithinCap is the runner's cost for a small answer: what every
// call pays, the envelope's size check included.
func BenchmarkRunWithinCap(b *testing.B) {
	r := &Runner{Host: "h", Version: "v1", Limits: func(Spec) Limits { return Limits{Timeout: time.Second, OutputCap: 64 << 10} }}
	inv := Invocation{Def: echoDef(), Args: json.RawMessage(`{"word":"abc","count":20}`)}
	for b.Loop() {
		if res := r.Run(context.Background(), inv); res.Err != nil || res.Envelope.Truncated {
			b.Fatalf("%s", res.JSON)
		}
	}
}

// BenchmarkRunOverCap is a 1 MB result under the default 64 KiB cap: laid
// out as the handle's indented JSON, and previewed.
func BenchmarkRunOverCap(b *testing.B) {
	type item struct {
		Path string `json:"path"`
		Line int    `json:"line"`
		Text string `json:"text"`
	}
	var items []item
	for i := range 10000 {
		items = append(items, item{Path: fmt.Sprintf("src/file_%04d.go", i), Line: i, Text: "\tif err != nil { return fmt.Errorf(\"x: %w\", err) }"})
	}
	d := New(Spec{Name: "big", Title: "Big", Description: "A large result.", Kind: ReadOnly},
		func(context.Context, *Call, struct{}) ([]item, error) { return items, nil })
	h := &memHandles{}
	r := &Runner{Host: "h", Version: "v1", Handles: h.put, Limits: func(Spec) Limits { return Limits{Timeout: time.Minute, OutputCap: 64 << 10} }}
	inv := Invocation{Def: d, Args: json.RawMessage(`{}`)}
	for b.Loop() {
		if res := r.Run(context.Background(), inv); !res.Envelope.Truncated {
			b.Fatalf("%.200s", res.JSON)
		}
	}
}
