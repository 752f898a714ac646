package cli

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParse(t *testing.T) {
	call, _ := Lookup("call")
	serve, _ := Lookup("serve")
	for _, tc := range []struct {
		name      string
		cmd       Command
		args      []string
		wantArgs  []string
		wantRoots []string
		wantRO    bool
		wantErr   string
	}{
		{name: "flags first", cmd: call, args: []string{"--root", "/a", "fs_read", `{"path":"x"}`},
			wantArgs: []string{"fs_read", `{"path":"x"}`}, wantRoots: []string{"/a"}},
		{name: "flags after the arguments", cmd: call, args: []string{"fs_read", `{"path":"x"}`, "--root", "/a:ro", "--read-only"},
			wantArgs: []string{"fs_read", `{"path":"x"}`}, wantRoots: []string{"/a:ro"}, wantRO: true},
		{name: "flags between", cmd: call, args: []string{"fs_read", "--root=/a", "{}", "-root", "/b"},
			wantArgs: []string{"fs_read", "{}"}, wantRoots: []string{"/a", "/b"}},
		{name: "after -- everything is an argument", cmd: call, args: []string{"--", "--root", "{}"},
			wantArgs: []string{"--root", "{}"}},
		{name: "-- after an argument", cmd: call, args: []string{"t", "--", "--x"}, wantArgs: []string{"t", "--x"}},
		{name: "missing argument", cmd: call, args: []string{"--read-only"}, wantErr: "missing TOOL [JSON]"},
		{name: "too many", cmd: call, args: []string{"a", "b", "c"}, wantErr: `too many arguments "a" "b" "c"`},
		{name: "none taken", cmd: serve, args: []string{"stdio"}, wantErr: `takes no arguments, got "stdio"`},
		{name: "unknown flag", cmd: serve, args: []string{"--htp", "x"}, wantErr: "flag provided but not defined: -htp"},
		{name: "flag of another command", cmd: call, args: []string{"t", "--http", ":1"}, wantErr: "not defined: -http"},
		{name: "missing value", cmd: serve, args: []string{"--http"}, wantErr: "flag needs an argument: -http"},
		{name: "twice", cmd: serve, args: []string{"--http", "a:1", "--http", "b:2"}, wantErr: "--http given twice"},
		{name: "bool with a value", cmd: serve, args: []string{"--read-only=false"}},
		{name: "bool with a bad value", cmd: serve, args: []string{"--read-only=maybe"}, wantErr: "want true or false"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Parse(tc.cmd, tc.args)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(p.Args, tc.wantArgs); diff != "" {
				t.Errorf("args (-got +want):\n%s", diff)
			}
			if diff := cmp.Diff(p.Strings("root"), tc.wantRoots); diff != "" {
				t.Errorf("roots (-got +want):\n%s", diff)
			}
			if p.Bool("read-only") != tc.wantRO {
				t.Errorf("read-only = %v", p.Bool("read-only"))
			}
		})
	}
}

// -h and --help anywhere ask for the command's help; the caller prints it
// and exits 0.
func TestParseHelp(t *testing.T) {
	for _, c := range Commands() {
		for _, args := range [][]string{{"--help"}, {"-h"}, {"x", "--help"}} {
			if _, err := Parse(c, args); !errors.Is(err, ErrHelp) {
				t.Errorf("%s %v: err = %v, want ErrHelp", c.Name, args, err)
			}
		}
	}
}

// Every command's synopsis, as help prints it, parses when filled in: the
// usage never shows an order that is refused.
func TestSynopsisIsAccepted(t *testing.T) {
	fill := map[string]string{"TOOL": "sys_snapshot", "[JSON]": "{}", "CLIENT": "cursor", "SHELL": "bash", "show": "show", "[COMMAND]": "serve"}
	for _, c := range Commands() {
		var args []string
		for _, w := range strings.Fields(c.Synopsis())[2:] {
			switch {
			case w == "[flags]":
				for _, f := range c.AllFlags() {
					args = append(args, "--"+f.Name)
					if f.Arg != "" {
						args = append(args, "/x")
					}
				}
			case fill[w] != "":
				args = append(args, fill[w])
			default:
				t.Fatalf("%s: no filler for %q", c.Name, w)
			}
		}
		if _, err := Parse(c, args); err != nil {
			t.Errorf("%s %v: %v", c.Name, args, err)
		}
		if !strings.Contains(Usage(), c.Synopsis()) || !strings.HasPrefix(c.Help(), "Usage: "+c.Synopsis()+"\n") {
			t.Errorf("%s: synopsis %q missing from the help", c.Name, c.Synopsis())
		}
	}
}

// Help lists a command's flags in the order of the table: its own first,
// then the common ones.
func TestHelpFlagOrder(t *testing.T) {
	serve, _ := Lookup("serve")
	help := serve.Help()
	last := -1
	for _, f := range serve.AllFlags() {
		i := strings.Index(help, "  --"+f.Name+" ")
		if i < 0 {
			t.Fatalf("--%s missing from serve's help:\n%s", f.Name, help)
		}
		if i < last {
			t.Errorf("--%s out of order in:\n%s", f.Name, help)
		}
		last = i
	}
}

// help completes every command but itself.
func TestHelpCompletesEveryCommand(t *testing.T) {
	var want []string
	for _, c := range Commands() {
		if c.Name != "help" {
			want = append(want, c.Name)
		}
	}
	if diff := cmp.Diff(names(), want); diff != "" {
		t.Errorf("names() (-got +want):\n%s", diff)
	}
}
