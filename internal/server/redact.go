package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// summaryMax is the longest argument summary kept in a call record.
const summaryMax = 200

// secretKey marks arguments whose values are never recorded, even in part.
func secretKey(k string) bool {
	k = strings.ToLower(k)
	for _, s := range []string{"token", "password", "passwd", "secret", "key", "auth", "credential", "cookie"} {
		if strings.Contains(k, s) {
			return true
		}
	}
	return false
}

// contentKey marks arguments that carry file contents or user input: only
// their size is recorded.
var contentKeys = map[string]bool{
	"content": true, "old_text": true, "new_text": true, "diff_text": true,
	"input": true, "program": true, "stdin": true, "data": true,
}

// summarizeArgs renders the arguments as "key=value ..." for the call
// record: secrets masked, contents replaced by their size, long values cut,
// at most 200 characters in all. Every call is recorded, refused ones too,
// so it scans the arguments in place, decodes only small values and stops
// once the summary is full: decoded whole, a list of two million numbers
// cost 184 MB here.
func summarizeArgs(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return ""
	}
	if raw[0] != '{' {
		return fmt.Sprintf("<%d bytes, not an object>", len(raw))
	}
	var parts []string
	size, i := 0, 1
	for size <= summaryMax {
		i = skipSpace(raw, i)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
		if i >= len(raw) || raw[i] != '"' {
			break
		}
		keyEnd := valueEnd(raw, i)
		var key string
		if json.Unmarshal(raw[i:keyEnd], &key) != nil {
			key = "?"
		}
		i = skipSpace(raw, keyEnd)
		if i >= len(raw) || raw[i] != ':' {
			break
		}
		start := skipSpace(raw, i+1)
		i = valueEnd(raw, start)
		p := cut(key, 40) + "=" + summarizeValue(key, raw[start:i])
		parts = append(parts, p)
		size += len(p) + 1
	}
	sort.Strings(parts)
	return cut(strings.Join(parts, " "), summaryMax)
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// valueEnd returns the index just past the JSON value that starts at b[i],
// found by counting brackets outside strings: no allocation, whatever the
// value's size or depth.
func valueEnd(b []byte, i int) int {
	depth, inString := 0, false
	for ; i < len(b); i++ {
		c := b[i]
		switch {
		case inString && c == '\\':
			i++
		case inString && c == '"':
			inString = false
			if depth == 0 {
				return i + 1
			}
		case inString:
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			depth++
		case c == ']' || c == '}':
			depth--
			if depth == 0 {
				return i + 1 // the end of this list or object
			}
			if depth < 0 {
				return i // a scalar, ended by its object's '}'
			}
		case c == ',' && depth == 0:
			return i
		}
	}
	return len(b)
}

// maxSummarized is the largest value decoded to be summarized; a larger one
// is summarized by its size, which decoding it would cost more than.
const maxSummarized = 4 << 10

func summarizeValue(k string, raw json.RawMessage) string {
	switch {
	case secretKey(k):
		return "***"
	case len(raw) > maxSummarized:
		return fmt.Sprintf("<%d bytes>", len(raw))
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return "<not valid JSON>"
	}
	switch {
	case contentKeys[strings.ToLower(k)]:
		if s, ok := v.(string); ok {
			return fmt.Sprintf("<%d bytes>", len(s))
		}
		return "<redacted>"
	case strings.EqualFold(k, "env"):
		if m, ok := v.(map[string]any); ok {
			return fmt.Sprintf("<%d vars>", len(m))
		}
		return "<redacted>"
	}
	switch t := v.(type) {
	case string:
		return cut(fmt.Sprintf("%q", t), 60)
	case map[string]any:
		return fmt.Sprintf("{%d keys}", len(t))
	case []any:
		return fmt.Sprintf("[%d items]", len(t))
	case nil:
		return "null"
	}
	b, _ := json.Marshal(v)
	return cut(string(b), 60)
}

// cut shortens s to at most n bytes, on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n-3]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s + "..."
}
