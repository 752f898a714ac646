package repl

import (
	"fmt"
	"slices"
	"strings"
	"syscall"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// namedKeys are the bytes a terminal sends for each key. Arrows use the
// normal-mode CSI form, which readline, node and irb all accept.
var namedKeys = map[string]string{
	"enter":     "\r",
	"tab":       "\t",
	"esc":       "\x1b",
	"backspace": "\x7f",
	"delete":    "\x1b[3~",
	"up":        "\x1b[A",
	"down":      "\x1b[B",
	"right":     "\x1b[C",
	"left":      "\x1b[D",
	"home":      "\x1b[H",
	"end":       "\x1b[F",
	"pageup":    "\x1b[5~",
	"pagedown":  "\x1b[6~",
}

// keyNames lists the accepted key names for messages and the schema.
func keyNames() string {
	names := make([]string, 0, len(namedKeys)+1)
	for k := range namedKeys {
		names = append(names, k)
	}
	slices.Sort(names)
	return strings.Join(append(names, "ctrl-a ... ctrl-z", `ctrl-\`), ", ")
}

// keyBytes returns what a key sends, for "ctrl-c", "up", "tab" and the rest.
func keyBytes(name string) (string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if b, ok := namedKeys[n]; ok {
		return b, nil
	}
	if l, ok := strings.CutPrefix(n, "ctrl-"); ok && len(l) == 1 {
		switch c := l[0]; {
		case c >= 'a' && c <= 'z':
			return string(rune(c - 'a' + 1)), nil
		case c == '\\':
			return "\x1c", nil
		}
	}
	return "", fmt.Errorf("unknown key %q; known keys: %s", tool.Clip(name), keyNames())
}

// pipeSignals are what a terminal's line discipline would turn these bytes
// into. A session without a PTY has no line discipline, so proc_send sends
// the signal to its process group itself.
var pipeSignals = map[string]syscall.Signal{
	"\x03": syscall.SIGINT,
	"\x1a": syscall.SIGTSTP,
	"\x1c": syscall.SIGQUIT,
}
