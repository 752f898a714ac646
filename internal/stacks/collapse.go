package stacks

import (
	"slices"
	"strconv"
	"strings"
)

// Collapsed renders samples in the folded format flame graph tools read:
// one line per distinct stack, "comm;root;...;leaf count", sorted so the
// same profile always gives the same bytes. The process name comes first so
// one flame graph separates processes.
func Collapsed(samples []Sample) []byte {
	counts := map[string]int64{}
	for _, s := range samples {
		parts := make([]string, 0, len(s.Stack)+1)
		parts = append(parts, sanitize(commOr(s.Comm)))
		for i := len(s.Stack) - 1; i >= 0; i-- { // perf prints leaf first
			parts = append(parts, sanitize(frameName(s.Stack[i])))
		}
		counts[strings.Join(parts, ";")] += s.Count
	}
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(' ')
		b.WriteString(strconv.FormatInt(counts[k], 10))
		b.WriteByte('\n')
	}
	return []byte(b.String())
}

// commOr names a sample's process, or says it is unknown.
func commOr(comm string) string {
	if strings.TrimSpace(comm) == "" {
		return unknown
	}
	return strings.ReplaceAll(comm, " ", "_") // the last space separates the count
}
