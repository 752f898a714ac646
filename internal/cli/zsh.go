package cli

import (
	"fmt"
	"strings"
)

// Zsh is the zsh completion script, made from the command table. It works
// both from a file named _hostmcp in $fpath (compinit autoloads it) and
// sourced (source <(hostmcp completion zsh)).
func Zsh() string {
	var b strings.Builder
	b.WriteString(`#compdef hostmcp
# zsh completion for hostmcp; written by "hostmcp completion zsh".
_hostmcp() {
	local -a commands
	commands=(
`)
	for _, c := range Commands() {
		fmt.Fprintf(&b, "\t\t'%s:%s'\n", c.Name, zshQuote(strings.ReplaceAll(c.Summary, ":", `\:`)))
	}
	b.WriteString(`	)
	if (( CURRENT == 2 )); then
		_describe -t commands 'hostmcp command' commands
		return
	fi
	local cmd=$words[2]
	shift words
	(( CURRENT-- ))
	curcontext="${curcontext%:*:*}:hostmcp-$cmd:"
	case $cmd in
`)
	for _, c := range Commands() {
		fmt.Fprintf(&b, "\t%s)\n\t\t_arguments -S \\\n", c.Name)
		for _, f := range c.AllFlags() {
			fmt.Fprintf(&b, "\t\t\t'%s' \\\n", zshFlagSpec(f))
		}
		b.WriteString("\t\t\t'(- *)--help[show this command'\\''s help]'")
		if c.MaxArgs > 0 {
			action := " "
			if len(c.ArgWords) > 0 {
				action = "(" + strings.Join(c.ArgWords, " ") + ")"
			}
			first, _, _ := strings.Cut(strings.Trim(c.Args, "[]"), " ")
			fmt.Fprintf(&b, " \\\n\t\t\t'1:%s:%s'", zshQuote(strings.ToLower(first)), action)
		}
		if c.MaxArgs > 1 {
			b.WriteString(" \\\n\t\t\t'2:json: '")
		}
		b.WriteString("\n\t\t;;\n")
	}
	b.WriteString(`	esac
}
if [[ $funcstack[1] == _hostmcp ]]; then
	_hostmcp "$@"
else
	compdef _hostmcp hostmcp
fi
`)
	return b.String()
}

// zshFlagSpec is f as an _arguments spec: "*--root=[...]:DIR:_directories".
func zshFlagSpec(f Flag) string {
	desc := strings.NewReplacer("[", "(", "]", ")").Replace(f.Usage)
	spec := "--" + f.Name
	if f.Repeat {
		spec = "*" + spec
	}
	if f.Arg == "" {
		return zshQuote(spec + "[" + desc + "]")
	}
	msg := strings.ToLower(strings.NewReplacer("[", "", "]", "", ":", "", ",", "").Replace(f.Arg))
	action := " "
	switch {
	case f.Complete.Files:
		action = "_files"
	case f.Complete.Dirs:
		action = "_directories"
	case len(f.Complete.Words) > 0 && strings.Contains(f.Arg, ","):
		action = "_values -s , " + msg + " " + strings.Join(f.Complete.Words, " ")
	case len(f.Complete.Words) > 0:
		action = "(" + strings.Join(f.Complete.Words, " ") + ")"
	}
	return zshQuote(spec + "=[" + desc + "]:" + msg + ":" + action)
}

// zshQuote makes s safe inside single quotes.
func zshQuote(s string) string { return strings.ReplaceAll(s, "'", `'\''`) }
