package server

import (
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
// at most 200 characters in all.
func summarizeArgs(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		return fmt.Sprintf("<%d bytes, not an object>", len(raw))
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, k+"="+summarizeValue(k, m[k]))
	}
	return cut(strings.Join(parts, " "), summaryMax)
}

func summarizeValue(k string, v any) string {
	switch {
	case secretKey(k):
		return "***"
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
