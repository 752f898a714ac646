package fsroot

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseJournal(t *testing.T) {
	sha := strings.Repeat("ab", 32)
	write := `{"root":"/srv","root_dev":1,"root_ino":2,"rel":"a/b","staged":".hostmcp-tmp-b-1n","kept":".hostmcp-tmp-b-1o","old_sha256":"` + sha + `","new_sha256":"` + sha + `"}`
	remove := `{"root":"/srv","root_dev":1,"root_ino":2,"rel":"c","remove":true,"kept":".hostmcp-tmp-c-2o","old_sha256":"` + sha + `"}`
	create := `{"root":"/srv","root_dev":1,"root_ino":2,"rel":"d","staged":".hostmcp-tmp-d-3n","new_sha256":"` + sha + `"}`
	head := func(entries ...string) string {
		return `{"version":1,"id":"0123456789abcdef","entries":[` + strings.Join(entries, ",") + "]}\n"
	}
	good := head(write, remove, create)
	commit, abort := `{"mark":"commit"}`+"\n", `{"mark":"abort"}`+"\n"
	for _, tc := range []struct {
		name, text, state string
		complete, ok      bool
	}{
		{"empty", "", "", false, true},
		{"intent cut short", good[:40], "", false, true},
		{"staging", good, "", true, true},
		{"commit cut short", good + commit[:5], "", true, true},
		{"committed", good + commit, markCommit, true, true},
		{"aborted", good + commit + abort, markAbort, true, true},
		{"abort before commit", good + abort, "", true, false},
		{"two commits", good + commit + commit, "", true, false},
		{"unknown mark", good + `{"mark":"done"}` + "\n", "", true, false},
		{"unknown field", head(strings.Replace(write, `"rel"`, `"mode":1,"rel"`, 1)), "", true, false},
		{"text after the record", strings.TrimSuffix(good, "\n") + " {}\n", "", true, false},
		{"version 2", strings.Replace(good, `"version":1`, `"version":2`, 1), "", true, false},
		{"no entries", head(), "", true, false},
		{"short id", strings.Replace(good, "0123456789abcdef", "0123", 1), "", true, false},
		{"relative root", head(strings.Replace(write, `"/srv"`, `"srv"`, 1)), "", true, false},
		{"unclean root", head(strings.Replace(write, `"/srv"`, `"/srv/../etc"`, 1)), "", true, false},
		{"rel climbs", head(strings.Replace(write, `"a/b"`, `"../b"`, 1)), "", true, false},
		{"rel absolute", head(strings.Replace(write, `"a/b"`, `"/etc/passwd"`, 1)), "", true, false},
		{"rel is the root", head(strings.Replace(write, `"a/b"`, `"."`, 1)), "", true, false},
		{"rel unclean", head(strings.Replace(write, `"a/b"`, `"a//b"`, 1)), "", true, false},
		{"staged is a path", head(strings.Replace(write, `".hostmcp-tmp-b-1n"`, `"../.hostmcp-tmp-b"`, 1)), "", true, false},
		{"staged is not temporary", head(strings.Replace(write, `".hostmcp-tmp-b-1n"`, `"b"`, 1)), "", true, false},
		{"kept is not temporary", head(strings.Replace(remove, `".hostmcp-tmp-c-2o"`, `"important"`, 1)), "", true, false},
		{"staged and kept one name", head(strings.Replace(write, `-1o"`, `-1n"`, 1)), "", true, false},
		{"old content without a kept name", head(strings.Replace(write, `"kept":".hostmcp-tmp-b-1o",`, ``, 1)), "", true, false},
		{"removal with a staged name", head(strings.Replace(remove, `"remove":true,`, `"remove":true,"staged":".hostmcp-tmp-x",`, 1)), "", true, false},
		{"write without a new sha", head(strings.Replace(create, `,"new_sha256":"`+sha+`"`, ``, 1)), "", true, false},
		{"upper-case sha", head(strings.Replace(create, sha, strings.ToUpper(sha), 1)), "", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in, state, complete, err := parseJournal([]byte(tc.text))
			if complete != tc.complete || (err == nil) != tc.ok || state != tc.state {
				t.Fatalf("complete=%v err=%v state=%q, want complete=%v ok=%v state=%q", complete, err, state, tc.complete, tc.ok, tc.state)
			}
			if tc.ok && tc.complete && len(in.Entries) != 3 {
				t.Errorf("entries: %+v", in.Entries)
			}
		})
	}
}

// FuzzParseJournal: any bytes parse without a panic, and a journal that
// parses holds only entries that validate (recovery acts on nothing else)
// and says the same when written out again.
func FuzzParseJournal(f *testing.F) {
	sha := strings.Repeat("0f", 32)
	f.Add([]byte(`{"version":1,"id":"0123456789abcdef","entries":[{"root":"/r","root_dev":1,"root_ino":2,"rel":"x","staged":".hostmcp-tmp-x-0n","new_sha256":"` + sha + `"}]}` + "\n" + `{"mark":"commit"}` + "\n"))
	f.Add([]byte(`{"version":1,"id":"0123456789abcdef","entries":[{"root":"/r","root_dev":1,"root_ino":2,"rel":"y","remove":true,"kept":".hostmcp-tmp-y-0o","old_sha256":"` + sha + `"}]}` + "\n"))
	f.Add([]byte("{\"version\":1\n{\"mark\":\"abort\"}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		in, _, complete, err := parseJournal(b)
		if err != nil || !complete {
			return
		}
		for _, e := range in.Entries {
			if e.validate() != nil || !filepath.IsLocal(e.Rel) || strings.Contains(e.Staged+e.Kept, "/") {
				t.Fatalf("accepted entry %+v", e)
			}
		}
		again, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		in2, _, _, err := parseJournal(append(again, '\n'))
		if err != nil || len(in2.Entries) != len(in.Entries) {
			t.Fatalf("written out again, it does not parse: %v", err)
		}
	})
}
