package search

import "testing"

func TestHasUpper(t *testing.T) {
	cases := []struct {
		pattern string
		literal bool
		want    bool
	}{
		{"func new", false, false},
		{"func New", false, true},
		{`\S+\W\D\pL\p{Greek}\x{41}`, false, false},
		{`\S+Error`, false, true},
		{`[A-Z]+`, false, true},
		{`(?i)x`, false, false},
		{`(?P<Name>x)`, false, false},
		{`(?P<name>X)`, false, true},
		{`\QAbc\E`, false, true},
		{`\S`, true, true}, // a literal is text
		{"ÉCOLE", false, true},
		{"école", true, false},
	}
	for _, c := range cases {
		if got := hasUpper(c.pattern, c.literal); got != c.want {
			t.Errorf("hasUpper(%q, literal %v) = %v, want %v", c.pattern, c.literal, got, c.want)
		}
	}
}
