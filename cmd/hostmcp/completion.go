package main

import (
	"fmt"

	"github.com/hostmcp/hostmcp/internal/cli"
)

func completionCmd(p *cli.Parsed, s stdio) int {
	switch p.Args[0] {
	case "bash":
		fmt.Fprint(s.out, cli.Bash())
	case "zsh":
		fmt.Fprint(s.out, cli.Zsh())
	default:
		fmt.Fprintf(s.err, "hostmcp completion: unknown shell %q; want bash or zsh\n", p.Args[0])
		return 2
	}
	return 0
}
