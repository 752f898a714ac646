package clientconf

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// The formats the clients read, strictly: a snippet with a key they do
// not know fails to decode.
type (
	stdioEntry struct {
		Type    string   `json:"type,omitempty"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	httpEntry struct {
		Type    string            `json:"type,omitempty"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
	}
)

func decodeStrict(t *testing.T, text string, v any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		t.Fatalf("snippet does not decode: %v\n%s", err, text)
	}
	if dec.More() {
		t.Fatalf("trailing data after the snippet:\n%s", text)
	}
}

// shellWords splits a command line as bash does (no expansion inside
// single quotes).
func shellWords(t *testing.T, line string) []string {
	t.Helper()
	testutil.RequireBinary(t, "bash")
	out, err := exec.Command("bash", "--norc", "--noprofile", "-c", `eval "set -- $1"; printf '%s\0' "$@"`, "bash", strings.TrimSpace(line)).Output()
	if err != nil {
		t.Fatalf("bash could not split %q: %v", line, err)
	}
	return strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
}

var stdio = Options{Binary: "/usr/bin/hostmcp", ServeArgs: []string{"serve", "--root", "/srv/my app", "--root", "/var/log:ro"}}

func TestStdioSnippets(t *testing.T) {
	want := stdioEntry{Command: stdio.Binary, Args: stdio.ServeArgs}
	for _, tc := range []struct {
		client, wrapper, typ string
	}{
		{"claude-desktop", "mcpServers", ""},
		{"cursor", "mcpServers", ""},
		{"vscode", "servers", "stdio"},
	} {
		o := stdio
		o.Client = tc.client
		s, err := Write(o)
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]stdioEntry
		decodeStrict(t, s.Text, &doc)
		w := want
		w.Type = tc.typ
		if diff := cmp.Diff(doc[tc.wrapper]["hostmcp"], w); diff != "" {
			t.Errorf("%s (-got +want):\n%s", tc.client, diff)
		}
	}
	o := stdio
	o.Client = "claude-code"
	s, err := Write(o)
	if err != nil {
		t.Fatal(err)
	}
	got := shellWords(t, s.Text)
	wantArgv := append([]string{"claude", "mcp", "add", "hostmcp", "--", stdio.Binary}, stdio.ServeArgs...)
	if diff := cmp.Diff(got, wantArgv); diff != "" {
		t.Errorf("claude-code argv (-got +want):\n%s", diff)
	}
}

func TestHTTPSnippets(t *testing.T) {
	const url = "http://127.0.0.1:8765/mcp"
	for _, tc := range []struct {
		client, wrapper string
		want            httpEntry
	}{
		{"vscode", "servers", httpEntry{Type: "http", URL: url, Headers: map[string]string{"Authorization": "Bearer ${env:HOSTMCP_TOKEN}"}}},
		{"cursor", "mcpServers", httpEntry{URL: url, Headers: map[string]string{"Authorization": "Bearer ${env:HOSTMCP_TOKEN}"}}},
	} {
		s, err := Write(Options{Client: tc.client, URL: url})
		if err != nil {
			t.Fatal(err)
		}
		var doc map[string]map[string]httpEntry
		decodeStrict(t, s.Text, &doc)
		if diff := cmp.Diff(doc[tc.wrapper]["hostmcp"], tc.want); diff != "" {
			t.Errorf("%s (-got +want):\n%s", tc.client, diff)
		}
		if !strings.Contains(s.Note, "HOSTMCP_TOKEN") {
			t.Errorf("%s: the note does not say where the token comes from: %s", tc.client, s.Note)
		}
	}

	s, err := Write(Options{Client: "claude-desktop", URL: url})
	if err != nil {
		t.Fatal(err)
	}
	var desk map[string]map[string]stdioEntry
	decodeStrict(t, s.Text, &desk)
	wantDesk := stdioEntry{Command: "npx", Args: []string{"-y", "mcp-remote", url, "--header", "Authorization: Bearer ${HOSTMCP_TOKEN}"}}
	if diff := cmp.Diff(desk["mcpServers"]["hostmcp"], wantDesk); diff != "" {
		t.Errorf("claude-desktop (-got +want):\n%s", diff)
	}

	s, err = Write(Options{Client: "claude-code", URL: url})
	if err != nil {
		t.Fatal(err)
	}
	wantArgv := []string{"claude", "mcp", "add", "--scope", "project", "--transport", "http", "hostmcp", url, "--header", "Authorization: Bearer ${HOSTMCP_TOKEN}"}
	if diff := cmp.Diff(shellWords(t, s.Text), wantArgv); diff != "" {
		t.Errorf("claude-code argv (-got +want):\n%s", diff)
	}
}

// Plain http beyond loopback is allowed but warned about; a URL that is not
// http(s), has no host or carries credentials is refused.
func TestURLs(t *testing.T) {
	s, err := Write(Options{Client: "cursor", URL: "http://10.1.2.3:8765/mcp"})
	if err != nil || !strings.Contains(s.Note, "in clear") {
		t.Errorf("remote plain http: %v, note %q", err, s.Note)
	}
	s, err = Write(Options{Client: "cursor", URL: "https://host.example/mcp"})
	if err != nil || strings.Contains(s.Note, "in clear") {
		t.Errorf("https: %v, note %q", err, s.Note)
	}
	for _, bad := range []string{"ftp://h/mcp", "127.0.0.1:8765", "http:///mcp", "https://user:secret@h/mcp", "http://[::1"} {
		if _, err := Write(Options{Client: "cursor", URL: bad}); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if _, err := Write(Options{Client: "emacs"}); err == nil || !strings.Contains(err.Error(), "claude-code") {
		t.Errorf("unknown client: %v", err)
	}
}

// JSON snippets keep characters HTML escaping would mangle.
func TestJSONKeepsCharacters(t *testing.T) {
	s, err := Write(Options{Client: "cursor", Binary: "/opt/a&b/hostmcp", ServeArgs: []string{"serve", "--root", "/srv/<x>"}})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains([]byte(s.Text), []byte("/opt/a&b/hostmcp")) || !strings.Contains(s.Text, "/srv/<x>") {
		t.Errorf("escaped:\n%s", s.Text)
	}
}
