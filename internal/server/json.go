package server

import "encoding/json"

// jsonRaw hands already-encoded JSON to the SDK so the envelope is encoded
// once, not once per content block.
func jsonRaw(b []byte) json.RawMessage { return json.RawMessage(b) }
