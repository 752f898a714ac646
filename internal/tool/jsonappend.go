package tool

// AppendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it without HTML escaping (appendJSONString): for a
// transport that writes a tool's answer as the text of a result itself,
// where encoding/json would check that answer one byte at a time.
func AppendJSONString(dst []byte, s string) []byte { return appendJSONString(dst, s) }
