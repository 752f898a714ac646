package cli

import (
	"fmt"
	"strings"
)

// Bash is the bash completion script, made from the command table. It
// completes commands, each command's flags (wherever they stand, as Parse
// accepts them), flag values (files, directories, fixed words; a comma list
// for --toolsets) and a command's first argument.
func Bash() string {
	var b strings.Builder
	b.WriteString(`# bash completion for hostmcp; written by "hostmcp completion bash".
_hostmcp() {
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
	if ((COMP_CWORD == 1)); then
		COMPREPLY=($(compgen -W "` + strings.Join(names(), " ") + ` help" -- "$cur"))
		return
	fi
	local cmd=${COMP_WORDS[1]} flags="" args="" valued="" npos=0 i w
	case $cmd in
`)
	for _, c := range Commands() {
		var fl, valued []string
		for _, f := range c.AllFlags() {
			fl = append(fl, "--"+f.Name)
			if f.Arg != "" {
				valued = append(valued, "--"+f.Name)
			}
		}
		fmt.Fprintf(&b, "\t%s) flags=%q args=%q valued=%q ;;\n", c.Name,
			strings.Join(fl, " "), strings.Join(c.ArgWords, " "), " "+strings.Join(valued, " ")+" ")
	}
	b.WriteString(`	*) return ;;
	esac
	case $prev in
`)
	for _, f := range CommonFlags() {
		writeBashValue(&b, f)
	}
	for _, f := range httpFlags() {
		if f.Name != "http" {
			writeBashValue(&b, f)
		}
	}
	b.WriteString(`	--http) return ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$flags --help" -- "$cur"))
		return
	fi
	# Count the arguments already given, skipping flags and their values.
	for ((i = 2; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == -* ]]; then
			[[ $w != *=* && $valued == *" $w "* ]] && ((i++))
		else
			((npos++))
		fi
	done
	if ((npos == 0)) && [[ -n $args ]]; then
		COMPREPLY=($(compgen -W "$args" -- "$cur"))
	fi
}
complete -F _hostmcp hostmcp
`)
	return b.String()
}

// writeBashValue writes the case arm that completes f's value.
func writeBashValue(b *strings.Builder, f Flag) {
	switch {
	case f.Complete.Files:
		fmt.Fprintf(b, "\t--%s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", f.Name)
	case f.Complete.Dirs:
		fmt.Fprintf(b, "\t--%s) COMPREPLY=($(compgen -d -- \"$cur\")); return ;;\n", f.Name)
	case len(f.Complete.Words) > 0 && strings.Contains(f.Arg, ","):
		// A comma-separated list: complete the item after the last comma.
		fmt.Fprintf(b, "\t--%s)\n\t\tlocal head=\"\"\n\t\t[[ $cur == *,* ]] && head=${cur%%,*},\n", f.Name)
		fmt.Fprintf(b, "\t\tCOMPREPLY=($(compgen -P \"$head\" -W %q -- \"${cur##*,}\"))\n\t\treturn ;;\n", strings.Join(f.Complete.Words, " "))
	case len(f.Complete.Words) > 0:
		fmt.Fprintf(b, "\t--%s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", f.Name, strings.Join(f.Complete.Words, " "))
	default:
		fmt.Fprintf(b, "\t--%s) return ;;\n", f.Name)
	}
}
