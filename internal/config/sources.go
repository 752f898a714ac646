package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Sources says where each setting's value came from, by dotted key
// ("limits.max_timeout", "roots", "tools.fs_read.timeout"): "file PATH",
// "env NAME" or "flag --name". A key it does not name is a default.
type Sources map[string]string

// Of is where key's value came from: its own entry, else that of the
// nearest table above it that was set whole (roots, repl.args), else
// "default".
func (s Sources) Of(key string) string {
	for k := key; k != ""; {
		if src, ok := s[k]; ok {
			return src
		}
		i := strings.LastIndex(k, ".")
		if i < 0 {
			break
		}
		k = k[:i]
	}
	return "default"
}

// envKeys are the settings each environment variable sets, as applyEnv
// applies them (a test checks the two agree).
func envKeys() map[string][]string {
	return map[string][]string{
		EnvRoots:         {"roots"},
		EnvReadOnlyRoots: {"roots"},
		EnvToolsets:      {"toolsets.enabled"},
		EnvReadOnly:      {"toolsets.read_only"},
		EnvStateDir:      {"state_dir"},
		EnvHTTPAddr:      {"http.addr"},
		EnvTokenFile:     {"http.token_file"},
		EnvLogLevel:      {"log.level"},
	}
}

// flagKeys are the settings each flag sets, as applyFlags applies them.
func flagKeys(f *Flags) map[string]string {
	set := map[string]string{}
	if len(f.Roots) > 0 {
		set["--root"] = "roots"
	}
	if f.Toolsets != "" {
		set["--toolsets"] = "toolsets.enabled"
	}
	if f.ReadOnly != nil {
		set["--read-only"] = "toolsets.read_only"
	}
	if f.StateDir != "" {
		set["--state-dir"] = "state_dir"
	}
	if f.HTTPAddr != "" {
		set["--http"] = "http.addr"
	}
	if f.TokenFile != "" {
		set["--token-file"] = "http.token_file"
	}
	if f.LogLevel != "" {
		set["--log-level"] = "log.level"
	}
	return set
}

// LoadWithSources is Load, also saying where each value came from, for
// `hostmcp config show`.
func LoadWithSources(flags Flags, env func(string) string, cwd string) (*Config, Sources, error) {
	if env == nil {
		env = func(string) string { return "" }
	}
	c, err := Load(flags, env, cwd)
	if err != nil {
		return nil, nil, err
	}
	src := Sources{}
	path := flags.ConfigPath
	if path == "" {
		path = env(EnvConfig)
	}
	if path != "" {
		abs := absPath(path, cwd)
		data, err := os.ReadFile(abs)
		if err != nil {
			return nil, nil, fmt.Errorf("reading the configuration file: %w", err)
		}
		var doc map[string]any
		if err := toml.Unmarshal(data, &doc); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, k := range documentKeys(doc, "") {
			src[k] = "file " + filepath.Clean(abs)
		}
	}
	for name, keys := range envKeys() {
		if env(name) != "" {
			for _, k := range keys {
				src[k] = "env " + name
			}
		}
	}
	for flag, k := range flagKeys(&flags) {
		src[k] = "flag " + flag
	}
	return c, src, nil
}

// documentKeys lists the dotted keys of the values a decoded TOML document
// sets; a table is not a value, its keys are. An array of tables
// ([[roots]]) is one key: it replaces the default whole.
func documentKeys(doc map[string]any, prefix string) []string {
	var out []string
	for k, v := range doc {
		switch v := v.(type) {
		case map[string]any:
			out = append(out, documentKeys(v, prefix+k+".")...)
		default:
			out = append(out, prefix+k)
		}
	}
	sort.Strings(out)
	return out
}
