package patch

import (
	"strings"

	"github.com/aymanbagabas/go-udiff"
)

// Block is an exact replacement of old text by new text in content.
type Block struct {
	Content   []byte // the content after the replacement
	Count     int    // occurrences of the old text found
	FirstLine int    // 1-based line where the first occurrence starts
	Old, New  string // the texts as matched, with the file's line endings
}

// ReplaceBlock replaces every occurrence of oldText by newText when there
// are exactly want of them; otherwise Content is nil and Count says how
// many there were. Texts written with LF match a CRLF file: they are given
// its line endings first, so the file keeps them.
func ReplaceBlock(content []byte, oldText, newText string, want int) Block {
	s := string(content)
	if DominantEOL(Split(content)) == "\r\n" && !strings.Contains(oldText, "\r\n") {
		oldText = strings.ReplaceAll(oldText, "\n", "\r\n")
		newText = strings.ReplaceAll(strings.ReplaceAll(newText, "\r\n", "\n"), "\n", "\r\n")
	}
	b := Block{Old: oldText, New: newText, Count: strings.Count(s, oldText)}
	if b.Count == 0 || b.Count != want {
		return b
	}
	b.FirstLine = strings.Count(s[:strings.Index(s, oldText)], "\n") + 1
	b.Content = []byte(strings.ReplaceAll(s, oldText, newText))
	return b
}

// NearMiss is the part of a file most like a text that was not found.
type NearMiss struct {
	StartLine  int     `json:"start_line"`
	EndLine    int     `json:"end_line"`
	Similarity float64 `json:"similarity" jsonschema:"0 to 1"`
	Diff       string  `json:"diff" jsonschema:"unified diff from the text given to what the file has there"`
}

// maxNearMissWork bounds the line comparisons of one search.
const maxNearMissWork = 4_000_000

// FindNearMiss finds the run of lines of content most similar to text (as
// many lines as text has), so an agent whose old_text was slightly off (white
// space, indentation, a changed word) can correct it in one try. It returns
// false when nothing is even half similar.
func FindNearMiss(content []byte, text string) (NearMiss, bool) {
	lines := Split(content)
	want := Split([]byte(strings.ReplaceAll(text, "\r\n", "\n")))
	k := len(want)
	if k == 0 || len(lines) == 0 {
		return NearMiss{}, false
	}
	k = min(k, len(lines))
	norm := make([]string, len(want))
	for i, l := range want {
		norm[i] = normalizeWS(l.Text)
	}
	anchored := len(lines)*k > maxNearMissWork
	best, bestAt := 0.0, -1
	for at := 0; at+k <= len(lines); at++ {
		if anchored && !anyEqual(lines[at:at+k], norm) {
			continue // on huge inputs, only windows sharing a line are scored
		}
		score := 0.0
		for i := range k {
			score += lineSimilarity(lines[at+i].Text, want[i].Text, norm[i])
		}
		if score /= float64(len(want)); score > best {
			best, bestAt = score, at
		}
	}
	if bestAt < 0 || best < 0.5 {
		return NearMiss{}, false
	}
	found := strings.ReplaceAll(string(Join(lines[bestAt:bestAt+k])), "\r\n", "\n")
	given := strings.ReplaceAll(text, "\r\n", "\n")
	if !strings.HasSuffix(given, "\n") && strings.HasSuffix(found, "\n") {
		// old_text need not end with a newline to match inside a file;
		// without this the diff would show a "No newline" difference that
		// is not the reason for the miss.
		given += "\n"
	}
	return NearMiss{
		StartLine:  bestAt + 1,
		EndLine:    bestAt + k,
		Similarity: float64(int(best*100)) / 100,
		Diff:       udiff.Unified("old_text", "file", given, found),
	}, true
}

func anyEqual(lines []Line, norm []string) bool {
	for i, l := range lines {
		if i < len(norm) && normalizeWS(l.Text) == norm[i] && norm[i] != "" {
			return true
		}
	}
	return false
}

// lineSimilarity is 1 for equal lines, 0.9 when only white space differs,
// else the Dice coefficient of their character bigrams (scaled below 0.9).
func lineSimilarity(a, b, bNorm string) float64 {
	if a == b {
		return 1
	}
	if normalizeWS(a) == bNorm {
		return 0.9
	}
	return 0.85 * dice(strings.TrimSpace(a), strings.TrimSpace(b))
}

func dice(a, b string) float64 {
	if len(a) < 2 || len(b) < 2 {
		if a == b {
			return 1
		}
		return 0
	}
	grams := map[string]int{}
	for i := 0; i+2 <= len(a); i++ {
		grams[a[i:i+2]]++
	}
	common := 0
	for i := 0; i+2 <= len(b); i++ {
		if g := b[i : i+2]; grams[g] > 0 {
			grams[g]--
			common++
		}
	}
	return 2 * float64(common) / float64(len(a)-1+len(b)-1)
}

// UnifiedDiff is the unified diff of a change to the file at path.
func UnifiedDiff(path string, before, after []byte) string {
	return udiff.Unified("a/"+path, "b/"+path, string(before), string(after))
}
