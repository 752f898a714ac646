package cli

import (
	"fmt"
	"strings"

	"github.com/hostmcp/hostmcp/internal/config"
)

// Man is the hostmcp(1) manual page in roff, made from the command table;
// version names the release in its header.
func Man(version string) string {
	var b strings.Builder
	fmt.Fprintf(&b, ".TH HOSTMCP 1 \"\" \"hostmcp %s\" \"User Commands\"\n", roff(version))
	b.WriteString(`.SH NAME
hostmcp \- an MCP server to operate and diagnose this Linux host
.SH SYNOPSIS
.B hostmcp
.I command
.RI [ flags ]
.RI [ arguments ]
.SH DESCRIPTION
hostmcp serves the Model Context Protocol (MCP) over stdio or streamable HTTP, so that an AI agent
can operate and diagnose this host: its files inside allowed roots, its processes, interactive
sessions, services and logs, and its performance down to perf profiles and eBPF traces.
File tools work only inside the allowed roots, programs run from an allowlist with argv only,
and no tool can change the configuration.
Flags may come before or after a command's arguments;
.B \-\-
ends them.
.SH COMMANDS
`)
	for _, c := range Commands() {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s.\n", roff(c.Synopsis()), roff(upperFirst(c.Summary)))
		if c.Detail != "" {
			fmt.Fprintf(&b, "%s\n", roff(c.Detail))
		}
		var own []string
		for _, f := range c.Flags {
			own = append(own, "\\fB"+roff("--"+f.Name)+"\\fR")
		}
		if len(own) > 0 {
			fmt.Fprintf(&b, "Own flags: %s.\n", strings.Join(own, ", "))
		}
	}
	b.WriteString(".SH FLAGS\n")
	seen := map[string]bool{}
	var all []Flag
	for _, c := range Commands() {
		for _, f := range c.Flags {
			if !seen[f.Name] {
				seen[f.Name] = true
				all = append(all, f)
			}
		}
	}
	all = append(all, CommonFlags()...)
	for _, f := range all {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s.\n", roff(f.spelling()), roff(upperFirst(f.Usage)))
	}
	b.WriteString(`.SH ENVIRONMENT
Settings come from, in increasing precedence: defaults, the configuration file, the environment,
flags.
`)
	for _, e := range []struct{ name, what string }{
		{config.EnvConfig, "the configuration file, when --config is not given"},
		{config.EnvRoots, "read-write roots, colon-separated"},
		{config.EnvReadOnlyRoots, "read-only roots, colon-separated"},
		{config.EnvToolsets, "toolsets to serve, comma-separated"},
		{config.EnvReadOnly, "1 or true to serve only read-only tools"},
		{config.EnvStateDir, "the state directory"},
		{config.EnvHTTPAddr, "serve streamable HTTP on this host:port"},
		{config.EnvTokenFile, "the file holding the HTTP bearer token"},
		{config.EnvToken, "the HTTP bearer token itself (at least 16 characters); never a flag"},
		{config.EnvLogLevel, "debug, info, warn or error"},
	} {
		fmt.Fprintf(&b, ".TP\n.B %s\n%s.\n", e.name, roff(upperFirst(e.what)))
	}
	b.WriteString(`.SH FILES
.TP
.I /etc/hostmcp/hostmcp.toml
The packaged service's configuration; every setting, with its default and limits, is in
.IR /usr/share/doc/hostmcp/hostmcp.example.toml .
.TP
.I /etc/hostmcp/token
The packaged service's bearer token, handed to it with systemd's LoadCredential=.
.TP
.I /var/lib/hostmcp
The state directory of a server running as root: the state database, artifacts, and the HOME and
TMPDIR of the programs hostmcp runs.
.SH EXIT STATUS
0 on success; 1 when a command failed or found a problem (a tool error for
.BR call ,
a problem for
.B triage
and
.BR doctor );
2 on a usage error.
.SH EXAMPLES
.nf
hostmcp doctor \-\-config /etc/hostmcp/hostmcp.toml
hostmcp call sys_snapshot
hostmcp client\-config claude\-code \-\-root /srv/app
hostmcp serve \-\-http 127.0.0.1:8765 \-\-token\-file /etc/hostmcp/token
.fi
.SH SEE ALSO
.BR systemd.exec (5),
.BR capabilities (7),
.BR landlock (7)
`)
	return b.String()
}

// roff escapes text for a roff line: backslashes, hyphens (which roff
// would set as hyphens rather than minus signs, breaking copied flags) and
// a leading dot or quote, which would start a request.
func roff(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	s = strings.ReplaceAll(s, "-", `\-`)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
