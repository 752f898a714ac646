package cli

import (
	"fmt"
	"strings"
)

// Synopsis is the command's usage line, flags first; they may also follow
// the arguments.
func (c Command) Synopsis() string {
	s := "hostmcp " + c.Name
	if len(c.AllFlags()) > 0 {
		s += " [flags]"
	}
	if c.Args != "" {
		s += " " + c.Args
	}
	return s
}

// Usage is the help of hostmcp itself: every command and the common flags.
func Usage() string {
	var b strings.Builder
	b.WriteString("hostmcp: an MCP server to operate and diagnose this Linux host.\n\nUsage:\n")
	cmds := Commands()
	width := 0
	for _, c := range cmds {
		width = max(width, len(c.Synopsis()))
	}
	for _, c := range cmds {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, c.Synopsis(), c.Summary)
	}
	b.WriteString("\nFlags may come before or after the arguments; -- ends them. Common flags:\n")
	writeFlags(&b, CommonFlags())
	b.WriteString("\nhostmcp COMMAND --help shows a command's own flags.\n")
	return b.String()
}

// Help is the text of `hostmcp NAME --help`.
func (c Command) Help() string {
	var b strings.Builder
	fmt.Fprintf(&b, "Usage: %s\n\n%s.\n", c.Synopsis(), upperFirst(c.Summary))
	if c.Detail != "" {
		fmt.Fprintf(&b, "%s\n", c.Detail)
	}
	if fl := c.AllFlags(); len(fl) > 0 {
		b.WriteString("\nFlags (before or after the arguments):\n")
		writeFlags(&b, fl)
	}
	return b.String()
}

func writeFlags(b *strings.Builder, fl []Flag) {
	width := 0
	for _, f := range fl {
		width = max(width, len(f.spelling()))
	}
	for _, f := range fl {
		fmt.Fprintf(b, "  %-*s  %s\n", width, f.spelling(), f.Usage)
	}
}

// spelling is how the flag is written: "--root DIR[:ro]".
func (f Flag) spelling() string {
	if f.Arg == "" {
		return "--" + f.Name
	}
	return "--" + f.Name + " " + f.Arg
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
