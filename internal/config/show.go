package config

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2"
)

// tableLine and keyLine are the shapes of go-toml's output lines.
var (
	tableLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\[?([^\]]+)\]\]?\s*$`) })
	keyLine   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\s*)([A-Za-z0-9_'"\-]+) = `) })
)

// Show writes c as TOML that Load reads back, each setting followed by a
// comment saying where its value came from (see Sources). The token is not
// a setting and never appears; http.token_file names only its file.
func (c *Config) Show(src Sources) ([]byte, error) {
	raw, err := toml.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("writing the configuration as TOML: %w", err)
	}
	var out bytes.Buffer
	out.WriteString("# The effective configuration, as hostmcp loads it with these flags and this\n# environment; after each value, where it came from.\n")
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		line := sc.Text()
		if m := tableLine().FindStringSubmatch(line); m != nil {
			table = unquoteKey(m[1])
			if strings.HasPrefix(strings.TrimSpace(line), "[[") {
				line += "  # " + src.Of(table)
			}
			out.WriteString(strings.TrimLeft(line, " \t") + "\n")
			continue
		}
		if m := keyLine().FindStringSubmatch(line); m != nil {
			key := unquoteKey(m[2])
			if table != "" {
				key = table + "." + key
			}
			if !strings.HasPrefix(key, "roots.") {
				line += "  # " + src.Of(key)
			}
		}
		out.WriteString(strings.TrimLeft(line, " \t") + "\n")
	}
	return out.Bytes(), sc.Err()
}

// unquoteKey turns go-toml's quoted key parts ('a.b'.c) into a dotted key.
func unquoteKey(k string) string {
	return strings.NewReplacer(`'`, "", `"`, "").Replace(strings.TrimSpace(k))
}
