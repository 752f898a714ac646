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

// MaxMessageBytes bounds an error message, a suggestion and a warning, as
// the last net under Clip: a message that quotes input without it is cut
// here. Messages that carry data by design stay well under it
// (fs_patch_block's near-miss diff is cut at 4 KiB).
const MaxMessageBytes = 8 << 10

// Clip returns s when it is at most ClipBytes long, else its first
// ClipBytes (cut at a character boundary) and a note of the full length.
// Use it for every argument a message quotes: fmt.Sprintf("%q", Clip(p)).
func Clip(s string) string { return clipTo(s, ClipBytes) }

// clipTo cuts s to its first n bytes, at a character boundary, noting the
// full length.
func clipTo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s…(%d bytes)", s[:cut], len(s))
}
