package tool

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClip(t *testing.T) {
	if got := Clip("short"); got != "short" {
		t.Errorf("Clip(short) = %q", got)
	}
	long := strings.Repeat("é", 3000) // 6000 bytes, two per rune
	got := Clip(long)
	if len(got) > ClipBytes+32 {
		t.Errorf("Clip kept %d bytes, want about %d", len(got), ClipBytes)
	}
	if !utf8.ValidString(got) {
		t.Errorf("Clip cut inside a character: %q", got)
	}
	if !strings.HasSuffix(got, "…(6000 bytes)") {
		t.Errorf("Clip must say the full length: %q", got)
	}
}

// Errorf is the net under Clip: a message that quotes input unclipped is
// cut; so are warnings, and past 50 they are only counted.
func TestMessagesAreCapped(t *testing.T) {
	huge := strings.Repeat("é", 1<<20)
	e := Errorf(InvalidArgument, "path %q is wrong", huge).WithSuggestion("not %s", huge)
	if len(e.Message) > MaxMessageBytes+32 || len(e.Suggestion) > MaxMessageBytes+32 {
		t.Errorf("message %d bytes, suggestion %d", len(e.Message), len(e.Suggestion))
	}
	if !strings.HasSuffix(e.Message, fmt.Sprintf("…(%d bytes)", len(huge)+len(`path "" is wrong`))) {
		t.Errorf("a cut message must say how long it was: %q", e.Message[len(e.Message)-40:])
	}
	c := &Call{}
	for range 70 {
		c.Warn("%s", huge)
	}
	w := c.Warnings()
	if len(w) != 51 || w[50] != "20 more warnings were left out" || len(w[0]) > MaxMessageBytes+32 {
		t.Errorf("%d warnings, last %q", len(w), w[len(w)-1])
	}
}
