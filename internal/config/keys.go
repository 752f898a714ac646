package config

import (
	"reflect"
	"strings"
)

// anyName stands for the free-form part of a key, the tool name in
// tools.<name>.timeout or the program in repl.args.<program>.
const anyName = "*"

// Keys lists every setting as a dotted key ("limits.max_timeout",
// "tools.*.timeout"), read from the struct tags so the list cannot drift
// from the struct. It names settings in suggestions and lets a test check
// that the example file documents each of them.
func Keys() []string {
	var out []string
	walkKeys(reflect.TypeFor[Config](), "", &out)
	return out
}

func walkKeys(t reflect.Type, prefix string, out *[]string) {
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if name == "" || name == "-" {
			continue
		}
		key := prefix + name
		ft := f.Type
		switch {
		case ft.Kind() == reflect.Map && ft.Elem().Kind() == reflect.Struct:
			walkKeys(ft.Elem(), key+"."+anyName+".", out)
		case ft.Kind() == reflect.Map:
			*out = append(*out, key+"."+anyName)
		case ft.Kind() == reflect.Slice && ft.Elem().Kind() == reflect.Struct:
			walkKeys(ft.Elem(), key+".", out)
		case ft.Kind() == reflect.Struct && ft != reflect.TypeFor[Duration]():
			walkKeys(ft, key+".", out)
		default:
			*out = append(*out, key)
		}
	}
}

// suggest returns the known key closest to an unknown one, or "" when none
// is close enough to be a likely typo.
func suggest(parts []string) string {
	var generic []string
	for i, p := range parts {
		if i == 1 && parts[0] == "tools" {
			p = anyName
		}
		generic = append(generic, p)
	}
	var cands []string
	for _, k := range Keys() {
		cands = append(cands, prefixes(k)...)
	}
	best := nearest(strings.Join(generic, "."), cands)
	if best == "" {
		best = sameLeaf(generic[len(generic)-1])
	}
	if len(parts) > 1 && parts[0] == "tools" {
		best = strings.Replace(best, anyName, parts[1], 1)
	}
	return best
}

// sameLeaf finds the one key ending in leaf, for a setting written in the
// wrong table; "" when none or several do.
func sameLeaf(leaf string) string {
	found := ""
	for _, k := range Keys() {
		if k == leaf || strings.HasSuffix(k, "."+leaf) {
			if found != "" {
				return ""
			}
			found = k
		}
	}
	return found
}

// prefixes are a key and its tables: "a.b.c" gives "a", "a.b", "a.b.c".
func prefixes(key string) []string {
	var out []string
	for i, c := range key {
		if c == '.' {
			out = append(out, key[:i])
		}
	}
	return append(out, key)
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
