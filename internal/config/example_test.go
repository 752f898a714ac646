package config

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pelletier/go-toml/v2"
)

const examplePath = "../../hostmcp.example.toml"

// TestExampleIsDefault loads the shipped example and expects exactly the
// defaults: the example documents, it does not configure.
func TestExampleIsDefault(t *testing.T) {
	dir := tempDir(t)
	env := envMap(map[string]string{"XDG_STATE_HOME": dir})
	abs, err := filepath.Abs(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Load(Flags{ConfigPath: abs}, env, dir)
	if err != nil {
		t.Fatalf("loading the example: %v", err)
	}
	if diff := cmp.Diff(got, Default(dir, 0, env)); diff != "" {
		t.Errorf("example (-got +want):\n%s", diff)
	}
}

// settingLine is a commented-out setting or table header in the example:
// "#key = value", "#[table]", "#[[table]]". Prose comments have a space.
var settingLine = regexp.MustCompile(`^#(\[|[a-z0-9_]+ = )`)

// uncommented is the example with every commented-out setting switched on.
func uncommented(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(examplePath)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	for i, l := range lines {
		if settingLine.MatchString(l) {
			lines[i] = strings.TrimPrefix(l, "#")
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// TestExampleCoversEveryKey checks that the example shows every setting of
// Config, and nothing Config does not have, with a comment above each.
func TestExampleCoversEveryKey(t *testing.T) {
	doc := uncommented(t)
	var m map[string]any
	if err := toml.Unmarshal(doc, &m); err != nil {
		t.Fatalf("the uncommented example is not TOML: %v", err)
	}
	var got []string
	flatten(m, "", &got)
	slices.Sort(got)
	got = slices.Compact(got) // repl.args.* once for every program shown
	want := Keys()
	slices.Sort(want)
	if diff := cmp.Diff(got, want); diff != "" {
		t.Errorf("keys in the example (-got +want):\n%s", diff)
	}

	// Every setting has prose in its paragraph: a "# " line above it with
	// no blank line between.
	lines := strings.Split(string(doc), "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "#") || !strings.Contains(l, " = ") {
			continue
		}
		documented := false
		for j := i - 1; j >= 0 && strings.TrimSpace(lines[j]) != ""; j-- {
			documented = documented || strings.HasPrefix(lines[j], "# ")
		}
		if !documented {
			t.Errorf("example line %d %q: no comment in its paragraph", i+1, l)
		}
	}
}

// TestExampleValuesAreDefaults decodes the uncommented example strictly
// and checks that each value it shows is the default, except the settings
// whose default depends on the host or which show an illustration.
func TestExampleValuesAreDefaults(t *testing.T) {
	c := Default("/", 0, envMap(nil))
	if err := c.decode("example", uncommented(t)); err != nil {
		t.Fatalf("the uncommented example does not decode: %v", err)
	}
	ignore := cmpopts.IgnoreFields(Config{}, "Roots", "Tools")
	if diff := cmp.Diff(c, Default("/", 0, envMap(nil)), ignore, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("uncommented example (-got +want):\n%s", diff)
	}
	// The values shown must also be valid; the illustrative root does not
	// exist here, so it is swapped for one that does.
	c.Roots = []Root{{Path: "/"}}
	if err := c.Validate(); err != nil {
		t.Errorf("uncommented example: %v", err)
	}
}

// flatten lists the dotted keys of a decoded document; tables in arrays
// add no index and tool and program names become "*", as in Keys.
func flatten(v any, prefix string, out *[]string) {
	switch v := v.(type) {
	case map[string]any:
		for k, sub := range v {
			if prefix == "tools." || prefix == "repl.args." || prefix == "confirm.tools." {
				k = anyName
			}
			flatten(sub, prefix+k+".", out)
		}
	case []map[string]any:
		for _, sub := range v {
			flatten(sub, prefix, out)
		}
	case []any:
		if len(v) > 0 {
			if _, ok := v[0].(map[string]any); ok {
				for _, sub := range v {
					flatten(sub, prefix, out)
				}
				return
			}
		}
		*out = append(*out, strings.TrimSuffix(prefix, "."))
	default:
		*out = append(*out, strings.TrimSuffix(prefix, "."))
	}
}
