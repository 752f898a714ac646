// Package clientconf writes the configuration an MCP client needs to reach
// this hostmcp, so that an operator copies it rather than types it: the
// binary's absolute path and the serve flags over stdio, or the endpoint
// over HTTP with the token referred to by an environment variable, never
// written inline where it would end up in a checked-in or synced file.
package clientconf

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/hostmcp/hostmcp/internal/httpserve"
)

// TokenEnv is the environment variable every HTTP snippet reads the token
// from: the one serve reads it from too.
const TokenEnv = "HOSTMCP_TOKEN"

// Options say what to connect to.
type Options struct {
	Client string // claude-code, claude-desktop, vscode or cursor
	// Binary and ServeArgs start the server over stdio: an absolute path
	// and what follows it ("serve", "--root", ...).
	Binary    string
	ServeArgs []string
	// URL, when set, is a running server's endpoint: the snippet connects
	// over streamable HTTP instead of starting a server.
	URL string
}

// Snippet is what client-config prints: Text on stdout, for the client;
// Note on stderr, for the operator (where it goes, what it expects).
type Snippet struct {
	Text string
	Note string
}

// writer is the function that writes a client's snippet.
func writer(client string) func(Options) Snippet {
	switch client {
	case "claude-code":
		return claudeCode
	case "claude-desktop":
		return claudeDesktop
	case "vscode":
		return vscode
	case "cursor":
		return cursor
	}
	return nil
}

// Write makes the snippet for o.Client.
func Write(o Options) (Snippet, error) {
	f := writer(o.Client)
	if f == nil {
		return Snippet{}, fmt.Errorf("unknown client %q; want claude-code, claude-desktop, vscode or cursor", o.Client)
	}
	if o.URL != "" {
		if err := checkURL(o.URL); err != nil {
			return Snippet{}, err
		}
	}
	s := f(o)
	if o.URL != "" {
		s.Note += fmt.Sprintf("\nThe token is read from the environment variable %s of the client (never written here); on the server host it is in the file given to --token-file, e.g. export %s=\"$(cat /etc/hostmcp/token)\".", TokenEnv, TokenEnv)
		if u, _ := url.Parse(o.URL); u.Scheme == "http" && !httpserve.IsLoopback(u.Hostname()) {
			s.Note += "\nWarning: plain http to another host sends the token in clear; put hostmcp behind a TLS proxy and use https."
		}
	}
	s.Note = strings.TrimSpace(s.Note)
	return s, nil
}

// checkURL accepts an absolute http(s) URL with a host and no credentials
// in it: a password in the URL would be the inline secret this avoids.
func checkURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("--http %q: %w", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("--http %q: want an http:// or https:// URL, e.g. http://127.0.0.1:8765/mcp", raw)
	case u.Host == "":
		return fmt.Errorf("--http %q: no host; want e.g. http://127.0.0.1:8765/mcp", raw)
	case u.User != nil:
		return fmt.Errorf("--http %q: credentials in the URL; the token goes in %s, never in the configuration", raw, TokenEnv)
	}
	return nil
}

// authHeader is the Authorization value with the token as a reference in
// the client's own syntax.
func authHeader(ref string) string { return "Bearer " + ref }

func claudeCode(o Options) Snippet {
	if o.URL == "" {
		argv := append([]string{"claude", "mcp", "add", "hostmcp", "--", o.Binary}, o.ServeArgs...)
		return Snippet{Text: shellLine(argv), Note: "Run this where Claude Code runs; it adds hostmcp for you (--scope project writes .mcp.json instead)."}
	}
	argv := []string{"claude", "mcp", "add", "--scope", "project", "--transport", "http", "hostmcp", o.URL,
		"--header", "Authorization: " + authHeader("${"+TokenEnv+"}")}
	return Snippet{Text: shellLine(argv), Note: "Run this in the project: it writes .mcp.json, where Claude Code expands ${" + TokenEnv + "} from its environment when it starts (single quotes keep the shell from expanding it now)."}
}

func claudeDesktop(o Options) Snippet {
	note := "Merge into claude_desktop_config.json (macOS: ~/Library/Application Support/Claude/, Windows: %APPDATA%\\Claude\\) and restart Claude Desktop."
	if o.URL == "" {
		return Snippet{Text: jsonText(map[string]any{"mcpServers": map[string]any{"hostmcp": stdioServer(o, "")}}), Note: note}
	}
	// Claude Desktop starts only stdio servers from this file; mcp-remote
	// bridges to HTTP and expands ${VAR} in its arguments itself.
	srv := map[string]any{"command": "npx", "args": []string{"-y", "mcp-remote", o.URL, "--header", "Authorization: " + authHeader("${"+TokenEnv+"}")}}
	return Snippet{Text: jsonText(map[string]any{"mcpServers": map[string]any{"hostmcp": srv}}),
		Note: note + "\nmcp-remote (run by npx, which needs Node.js) reads " + TokenEnv + " from the environment Claude Desktop was started in."}
}

func vscode(o Options) Snippet {
	note := "Put in .vscode/mcp.json of a workspace, or in the user mcp.json (MCP: Open User Configuration)."
	if o.URL == "" {
		return Snippet{Text: jsonText(map[string]any{"servers": map[string]any{"hostmcp": stdioServer(o, "stdio")}}), Note: note}
	}
	srv := map[string]any{"type": "http", "url": o.URL, "headers": map[string]string{"Authorization": authHeader("${env:" + TokenEnv + "}")}}
	return Snippet{Text: jsonText(map[string]any{"servers": map[string]any{"hostmcp": srv}}), Note: note}
}

func cursor(o Options) Snippet {
	note := "Put in ~/.cursor/mcp.json, or .cursor/mcp.json in a project."
	if o.URL == "" {
		return Snippet{Text: jsonText(map[string]any{"mcpServers": map[string]any{"hostmcp": stdioServer(o, "")}}), Note: note}
	}
	srv := map[string]any{"url": o.URL, "headers": map[string]string{"Authorization": authHeader("${env:" + TokenEnv + "}")}}
	return Snippet{Text: jsonText(map[string]any{"mcpServers": map[string]any{"hostmcp": srv}}), Note: note}
}

// stdioServer is the common stdio entry; typ is VS Code's "type", if any.
func stdioServer(o Options, typ string) map[string]any {
	srv := map[string]any{"command": o.Binary, "args": append([]string{}, o.ServeArgs...)}
	if typ != "" {
		srv["type"] = typ
	}
	return srv
}

// jsonText is v as indented JSON; json.Marshal sorts map keys, so the output
// is stable, and it escapes nothing a client would misread.
func jsonText(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		panic(err) // only maps, strings and slices: cannot fail
	}
	return b.String()
}

// shellLine quotes argv for a POSIX shell: words that need it go in single
// quotes, so nothing in them ($, spaces, globs) is expanded.
func shellLine(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ") + "\n"
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
