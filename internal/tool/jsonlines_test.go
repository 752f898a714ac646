package tool

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

// encodingJSONLines is what JSONLines wrote before it had a plan: one
// json.Encoder without HTML escaping, one item per line.
func encodingJSONLines[T any](t testing.TB, items []T) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for i := range items {
		if err := enc.Encode(&items[i]); err != nil {
			t.Fatal(err)
		}
	}
	return b.Bytes()
}

// hostileStrings are strings whose JSON needs care: every byte value alone
// and at each offset of an eight-byte window, invalid and truncated UTF-8,
// the separators JSON escapes, markup encoding/json would escape for HTML
// (not here), and long runs mixing them.
func hostileStrings() []string {
	out := []string{"", "a", `"`, `\`, "<a href=\"x\">&amp;</a>", "\u2028\u2029", "\ufffd", "é中😀",
		"\xed\xa0\x80", "\xc0\xaf", "\xe2\x80", "\xf0\x9f\x98", "a\xffb", "\x7f", "tab\there\r\n",
		strings.Repeat("plain ascii text ", 40), strings.Repeat("\"\\\n\t", 64)}
	for c := range 256 {
		for pad := range 10 {
			out = append(out, strings.Repeat("x", pad)+string([]byte{byte(c)})+strings.Repeat("y", 9-pad))
		}
	}
	for _, r := range []rune{0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff, 0x2027, 0x2028, 0x2029, 0x202a} {
		for pad := range 10 {
			out = append(out, strings.Repeat("x", pad)+string(r)+strings.Repeat("y", pad))
		}
	}
	rng := rand.New(rand.NewPCG(20, 3))
	alphabet := []byte("aZ09 \"\\/<>&\n\t\r\x00\x01\x1f\x7f\x80\xbf\xc3\xa9\xe2\x80\xa8\xa9\xf0\x9f\x98\x80\xff")
	for range 3000 {
		b := make([]byte, rng.IntN(70))
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = byte(rng.IntN(256))
			} else {
				b[i] = alphabet[rng.IntN(len(alphabet))]
			}
		}
		out = append(out, string(b))
	}
	return out
}

func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range hostileStrings() {
		want := encodingJSONLines(t, []string{s})
		got := append(appendJSONString(nil, s), '\n')
		if !bytes.Equal(got, want) {
			t.Errorf("%q: wrote %s, encoding/json writes %s", s, got, want)
		}
	}
}

func FuzzAppendJSONString(f *testing.F) {
	for _, s := range hostileStrings()[:300] {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := encodingJSONLines(t, []string{s})
		if got := append(appendJSONString(nil, s), '\n'); !bytes.Equal(got, want) {
			t.Errorf("%q: wrote %s, encoding/json writes %s", s, got, want)
		}
	})
}

type label string

// planned is a listing's item of every shape a plan writes itself.
type planned struct {
	Path      string  `json:"path"`
	Line      int     `json:"line"`
	Note      string  `json:"note,omitempty"`
	Count     int64   `json:"count,omitempty"`
	Small     int8    `json:"small"`
	Big       uint64  `json:"big,omitempty"`
	Byte      uint8   `json:"byte"`
	Flag      bool    `json:"flag,omitempty"`
	Shown     bool    `json:"shown"`
	Size      *int64  `json:"size,omitempty"`
	Target    *string `json:"target"`
	Kind      label   `json:"kind"`
	Untagged  string
	Skipped   string `json:"-"`
	NoName    int    `json:",omitempty"`
	hidden    string
	OtherName string `json:"other-name_2"`
}

// plannedItems are items of every shape a plan writes, with every hostile
// string, the extreme numbers, nil and set pointers, and the zero item.
func plannedItems() []planned {
	size, zero, target := int64(-7), int64(0), "t\"<>"
	var items []planned
	for i, s := range hostileStrings() {
		p := planned{Path: s, Line: i - 500, Note: s, Count: int64(i%3) * (math.MinInt64 / 2), Small: math.MinInt8, Byte: math.MaxUint8,
			Flag: i%2 == 0, Shown: i%3 == 0, Kind: label(s), Untagged: s, Skipped: s, NoName: i % 2, hidden: s, OtherName: s}
		switch i % 4 {
		case 0:
			p.Size, p.Target, p.Big = &size, &target, math.MaxUint64
		case 1:
			p.Size, p.Count = &zero, math.MinInt64
		case 2:
			p.Target, p.Count = &s, math.MaxInt64
		}
		items = append(items, p)
	}
	return append(items, planned{})
}

func TestJSONLinesMatchesEncodingJSON(t *testing.T) {
	if _, ok := planLines(reflect.TypeFor[planned]()); !ok {
		t.Fatal("planned has no plan")
	}
	items := plannedItems()
	got, err := JSONLines(items)
	if err != nil {
		t.Fatal(err)
	}
	if want := encodingJSONLines(t, items); !bytes.Equal(got, want) {
		gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := range min(len(gl), len(wl)) {
			if !bytes.Equal(gl[i], wl[i]) {
				t.Fatalf("line %d:\n got %s\nwant %s", i, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, want %d", len(gl), len(wl))
	}
}

type selfEncoded struct{ v string }

func (s selfEncoded) MarshalJSON() ([]byte, error) { return json.Marshal("self:" + s.v) }

type textEncoded string

func (s *textEncoded) MarshalText() ([]byte, error) { return []byte("text:" + string(*s)), nil }

type inner struct {
	Name string `json:"name"`
}

// Types a plan does not cover go to encoding/json, whose bytes they get.
func TestJSONLinesLeavesTheRestToEncodingJSON(t *testing.T) {
	type withFloat struct {
		CPU float64 `json:"cpu"`
	}
	type embedded struct {
		inner
		Line int `json:"line"`
	}
	type withString struct {
		N int `json:"n,string"`
	}
	type withTime struct {
		At time.Time `json:"at"`
	}
	type withSelf struct {
		S selfEncoded `json:"s"`
	}
	type withText struct {
		T textEncoded `json:"t"`
	}
	type withSlice struct {
		L []string `json:"l"`
	}
	type withOdd struct {
		A string `json:"a b"`
	}
	type duplicate struct {
		A string `json:"X"`
		X string
	}
	type withZero struct {
		A string `json:"a,omitzero"`
	}
	type withNumber struct {
		N json.Number  `json:"n"`
		P *json.Number `json:"p,omitempty"`
	}
	now := time.Date(2026, 11, 26, 13, 0, 0, 5, time.UTC)
	leftToEncodingJSON(t, "float", []withFloat{{1e21}, {1e-7}, {0.5}, {0}})
	leftToEncodingJSON(t, "embedded", []embedded{{inner{"n"}, 1}})
	leftToEncodingJSON(t, "string option", []withString{{5}})
	leftToEncodingJSON(t, "time", []withTime{{now}})
	leftToEncodingJSON(t, "MarshalJSON", []withSelf{{selfEncoded{"<x>"}}})
	leftToEncodingJSON(t, "MarshalText", []withText{{"y"}})
	leftToEncodingJSON(t, "slice", []withSlice{{[]string{"a", "<"}}, {}})
	leftToEncodingJSON(t, "odd name", []withOdd{{"v"}})
	leftToEncodingJSON(t, "duplicate names", []duplicate{{"a", "b"}})
	leftToEncodingJSON(t, "omitzero", []withZero{{""}, {"a"}})
	twelve := json.Number("12")
	leftToEncodingJSON(t, "json.Number", []withNumber{{"12", nil}, {"0.5", &twelve}})
	leftToEncodingJSON(t, "string", []string{"a", "<b>"})
	leftToEncodingJSON(t, "pointer", []*inner{{"a"}, nil})
	leftToEncodingJSON(t, "map", []map[string]int{{"b": 1, "a": 2}})
	leftToEncodingJSON(t, "self", []selfEncoded{{"q"}})
}

// leftToEncodingJSON checks that T has no plan and that JSONLines writes items as
// encoding/json does.
func leftToEncodingJSON[T any](t *testing.T, name string, items []T) {
	t.Helper()
	if _, ok := planLines(reflect.TypeFor[T]()); ok {
		t.Errorf("%s has a plan", name)
	}
	got, err := JSONLines(items)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if want := encodingJSONLines(t, items); !bytes.Equal(got, want) {
		t.Errorf("%s: wrote\n%s\nencoding/json writes\n%s", name, got, want)
	}
}
