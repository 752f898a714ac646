package tool

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
)

// MaxRegexpInsts bounds the program a caller's regular expression compiles
// to. Go's regexp runs in linear time, but compiling is not cheap: each
// counted repetition is a copy, so 4 KB of a{1000} is 585,000 instructions
// and took 144 MB and a second to compile. 32,768 instructions (about
// 1.3 MB) leave room for a 4,096-character literal (one instruction per
// character) and for realistic repetitions and alternations, many times
// over.
const MaxRegexpInsts = 32 << 10

// CompileRegexp compiles pattern, a caller's regular expression in Go's
// RE2 syntax, behind the inline flags given ("i", "mi"; "" for none). Its
// size once compiled is worked out from the parsed expression first, so a
// pattern over MaxRegexpInsts is refused before its program is built. arg
// names the argument in messages, which quote the pattern clipped.
func CompileRegexp(arg, pattern, flags string) (*regexp.Regexp, error) {
	expr := pattern
	if flags != "" {
		expr = "(?" + flags + ")" + pattern
	}
	parsed, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil, badRegexp(arg, pattern, err)
	}
	if n := progSize(parsed); n > MaxRegexpInsts {
		return nil, Errorf(InvalidArgument, "%s %q is too large once compiled: about %d instructions, over the limit of %d", arg, Clip(pattern), n, MaxRegexpInsts).
			WithSuggestion("Use fewer or smaller counted repetitions (x{1000} is a thousand copies of x) and shorter alternations.")
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, badRegexp(arg, pattern, err)
	}
	return re, nil
}

func badRegexp(arg, pattern string, err error) error {
	why := err.Error()
	var se *syntax.Error
	if errors.As(err, &se) {
		why = se.Code.String()
		if se.Expr != pattern {
			why += fmt.Sprintf(" at %q", Clip(se.Expr))
		}
	}
	return Errorf(InvalidArgument, "%s %q is not a valid regular expression: %s", arg, Clip(pattern), why).
		WithSuggestion("Use Go RE2 syntax (no lookaround or backreferences).")
}

// progSize is about the number of instructions the expression compiles to,
// counted as regexp/syntax's compiler emits them after Simplify: a literal
// one per character, an alternation one per branch, a counted repetition
// one copy of its operand per count (TestProgSizeBoundsTheCompiledProgram
// holds it to the compiler). Go's parser already refuses nesting
// whose counts multiply past 1000, so the figure fits an int.
func progSize(re *syntax.Regexp) int {
	sub := 0
	for _, s := range re.Sub {
		sub += progSize(s)
	}
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune)
	case syntax.OpConcat:
		return sub
	case syntax.OpAlternate:
		return sub + len(re.Sub)
	case syntax.OpCapture:
		return sub + 2
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		return sub + 1
	case syntax.OpRepeat: // x{n,m}: n copies, then m-n optional ones
		if re.Max == -1 {
			return max(re.Min, 1)*sub + 1
		}
		return re.Min*sub + (re.Max-re.Min)*(sub+1)
	}
	return 1
}
