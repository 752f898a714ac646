package tool

import (
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
