package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/hostmcp/hostmcp/internal/cli"
	"github.com/hostmcp/hostmcp/internal/clientconf"
)

// clientConfigCmd prints a client's configuration on stdout, and where it
// goes on stderr, so that stdout can be redirected into the file.
func clientConfigCmd(p *cli.Parsed, s stdio) int {
	o := clientconf.Options{Client: p.Args[0], URL: p.String("http")}
	if o.URL == "" {
		exe, err := os.Executable()
		if err == nil {
			exe, err = filepath.EvalSymlinks(exe)
		}
		if err != nil {
			fmt.Fprintf(s.err, "hostmcp: finding this binary: %v\n", err)
			return 1
		}
		cwd, err := os.Getwd()
		if err != nil {
			fmt.Fprintf(s.err, "hostmcp: finding the working directory: %v\n", err)
			return 1
		}
		o.Binary = exe
		if o.ServeArgs, err = clientconf.ServeArgs(configFlags(p), os.Getenv, cwd); err != nil {
			fmt.Fprintf(s.err, "hostmcp: %v\n", err)
			return 1
		}
	}
	snip, err := clientconf.Write(o)
	if err != nil {
		fmt.Fprintf(s.err, "hostmcp client-config: %v\n", err)
		return 2
	}
	fmt.Fprint(s.out, snip.Text)
	fmt.Fprintln(s.err, snip.Note)
	return 0
}
