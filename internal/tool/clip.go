package tool

import (
	"fmt"
	"unicode/utf8"
)

// ClipBytes is the longest piece of the caller's input an error message
// echoes. A message that quoted a 3 MB pattern or a 4 KB path back whole
// would spend the agent's tokens on what it already sent; the first few
// hundred bytes are enough to tell which argument was meant.
const ClipBytes = 200

// Clip returns s when it is at most ClipBytes long, else its first
// ClipBytes (cut at a character boundary) and a note of the full length.
// Use it for every argument a message quotes: fmt.Sprintf("%q", Clip(p)).
func Clip(s string) string {
	if len(s) <= ClipBytes {
		return s
	}
	cut := ClipBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}
