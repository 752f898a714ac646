package server

import (
	"runtime"
	"strings"
	"testing"
)

func TestSummarizeArgs(t *testing.T) {
	tests := []struct {
		name, args string
		want       string
		absent     []string
	}{
		{"empty", ``, "", nil},
		{"plain", `{"path":"/srv/a.txt","max_lines":20}`, `max_lines=20 path="/srv/a.txt"`, nil},
		{"secret", `{"api_key":"sk-123","token":"abc","password":"p"}`, `api_key=*** password=*** token=***`, []string{"sk-123", "abc"}},
		{"content sized", `{"path":"x","content":"top secret file body"}`, `content=<20 bytes> path="x"`, []string{"top secret"}},
		{"patch texts", `{"old_text":"aaa","new_text":"bbbb","diff_text":"--- a"}`, `diff_text=<5 bytes> new_text=<4 bytes> old_text=<3 bytes>`, nil},
		{"env values", `{"env":{"AWS_SECRET":"x","HOME":"/root"}}`, `env=<2 vars>`, []string{"AWS_SECRET", "/root"}},
		{"nested", `{"filter":{"a":1},"pids":[1,2,3]}`, `filter={1 keys} pids=[3 items]`, nil},
		{"not an object", `[1,2]`, `<5 bytes, not an object>`, nil},
		{"spaced and escaped", ` { "b" : "x\"}y" , "a" : [ {"c":"]"} ] , "n" : 7 } `, `a=[1 items] b="x\"}y" n=7`, nil},
		{"large value", `{"pids":[` + strings.Repeat("1,", 5000) + `1]}`, `pids=<10003 bytes>`, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := summarizeArgs([]byte(tc.args))
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			for _, a := range tc.absent {
				if strings.Contains(got, a) {
					t.Errorf("summary %q leaks %q", got, a)
				}
			}
		})
	}
}

func TestSummaryIsBounded(t *testing.T) {
	args := `{"a":"` + strings.Repeat("é", 500) + `","b":"` + strings.Repeat("x", 500) + `","c":"` + strings.Repeat("y", 500) + `","d":"` + strings.Repeat("z", 500) + `"}`
	got := summarizeArgs([]byte(args))
	if len(got) > summaryMax {
		t.Errorf("summary is %d bytes, over %d", len(got), summaryMax)
	}
	if !strings.HasSuffix(got, "...") {
		t.Errorf("a cut summary must say so: %q", got)
	}
}

// Every call is recorded, refused ones too, so the summary must not cost
// more than the call: decoding two million numbers whole to count them took
// 64 MB, and half a million keys more.
func TestSummaryCostIsBounded(t *testing.T) {
	for name, args := range map[string]string{
		"long list": `{"path":"x","pids":[` + strings.Repeat("1,", 2<<20) + `1]}`,
		"many keys": `{` + strings.Repeat(`"k":0,`, 500_000) + `"path":"x"}`,
		"deep":      `{"path":"x","a":` + strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20) + `}`,
	} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		got := summarizeArgs([]byte(args))
		runtime.ReadMemStats(&after)
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
			t.Errorf("%s: summarizing %d bytes of arguments allocated %d MiB", name, len(args), alloc>>20)
		}
		if len(got) > summaryMax || got == "" {
			t.Errorf("%s: summary %q", name, got)
		}
	}
}
