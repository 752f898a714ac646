package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// ErrHelp is returned by Parse when -h or --help was given: the caller
// prints the command's help on stdout and exits 0.
var ErrHelp = flag.ErrHelp

// Parsed is a command line parsed against one Command.
type Parsed struct {
	Command Command
	Args    []string // positional arguments, in order
	values  map[string][]string
}

// Parse reads args (what follows the command's name). Flags may come
// before, between or after the positional arguments, and "--" ends them;
// each flag is spelt -name or --name, its value as the next argument or
// after "=". The positional arguments are counted against the command's
// bounds.
func Parse(cmd Command, args []string) (*Parsed, error) {
	p := &Parsed{Command: cmd, values: map[string][]string{}}
	fs := flag.NewFlagSet(cmd.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	for _, f := range cmd.AllFlags() {
		if f.Arg == "" {
			fs.Var(boolValue{p, f.Name}, f.Name, f.Usage)
		} else {
			fs.Var(stringValue{p, f}, f.Name, f.Usage)
		}
	}
	rest := args
	for len(rest) > 0 {
		if err := fs.Parse(rest); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, ErrHelp
			}
			return nil, fmt.Errorf("%s: %w", cmd.Name, err)
		}
		left := fs.Args()
		if len(left) == 0 {
			break
		}
		// flag stops at the first positional argument, or after "--",
		// which it consumes: after "--" everything is positional.
		if i := len(rest) - len(left); i > 0 && rest[i-1] == "--" {
			p.Args = append(p.Args, left...)
			break
		}
		p.Args = append(p.Args, left[0])
		rest = left[1:]
	}
	switch {
	case len(p.Args) < cmd.MinArgs:
		return nil, fmt.Errorf("%s: missing %s", cmd.Name, cmd.Args)
	case len(p.Args) > cmd.MaxArgs && cmd.MaxArgs == 0:
		return nil, fmt.Errorf("%s: takes no arguments, got %s", cmd.Name, quoteArgs(p.Args))
	case len(p.Args) > cmd.MaxArgs:
		return nil, fmt.Errorf("%s: too many arguments %s; want %s", cmd.Name, quoteArgs(p.Args), cmd.Args)
	}
	return p, nil
}

// String is the last value of a flag, or "".
func (p *Parsed) String(name string) string {
	v := p.values[name]
	if len(v) == 0 {
		return ""
	}
	return v[len(v)-1]
}

// Strings are every value of a repeatable flag, in order.
func (p *Parsed) Strings(name string) []string { return p.values[name] }

// Bool is a boolean flag's value.
func (p *Parsed) Bool(name string) bool { return p.String(name) == "true" }

// IsSet reports whether the flag was given at all.
func (p *Parsed) IsSet(name string) bool { return len(p.values[name]) > 0 }

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = fmt.Sprintf("%q", a)
	}
	return strings.Join(q, " ")
}

// stringValue records a flag's values, keeping every one when it repeats.
type stringValue struct {
	p *Parsed
	f Flag
}

func (v stringValue) String() string { return "" }
func (v stringValue) Set(s string) error {
	if !v.f.Repeat && len(v.p.values[v.f.Name]) > 0 {
		return fmt.Errorf("--%s given twice", v.f.Name)
	}
	v.p.values[v.f.Name] = append(v.p.values[v.f.Name], s)
	return nil
}

// boolValue records a boolean flag; --name=false is accepted too.
type boolValue struct {
	p    *Parsed
	name string
}

func (v boolValue) String() string   { return "" }
func (v boolValue) IsBoolFlag() bool { return true }
func (v boolValue) Set(s string) error {
	switch strings.ToLower(s) {
	case "true", "1":
		s = "true"
	case "false", "0":
		s = "false"
	default:
		return fmt.Errorf("want true or false, got %q", s)
	}
	v.p.values[v.name] = []string{s}
	return nil
}
