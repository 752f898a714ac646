package config

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestParseCondition(t *testing.T) {
	tests := []struct {
		in   string
		want Condition
		err  string
	}{
		{in: "always", want: Condition{Fact: "always"}},
		{in: "recursive", want: Condition{Fact: "recursive"}},
		{in: "signal=KILL", want: Condition{Fact: "signal", Op: "=", Value: "KILL"}},
		{in: "files>5", want: Condition{Fact: "files", Op: ">", Value: "5"}},
		{in: "other_user=false", want: Condition{Fact: "other_user", Op: "=", Value: "false"}},
		{in: "", err: `"" is not a condition`},
		{in: "Recursive", err: `is not a condition`},
		{in: "files >5", err: `"files " is not a fact name`},
		{in: "always=true", err: `"always" is not a fact name`},
		{in: "files>", err: `the value "" must be`},
		{in: "files>five", err: `> takes a whole number, not "five"`},
		{in: "files>1.5", err: `> takes a whole number`},
		{in: "signal=KILL TERM", err: `the value "KILL TERM" must be`},
		{in: "a=b=c", err: `the value "b=c" must be`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got, err := ParseCondition(tc.in)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseCondition(%q) = %+v, %v; want an error with %q", tc.in, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got != tc.want || got.String() != tc.in {
				t.Errorf("ParseCondition(%q) = %+v (%q), want %+v", tc.in, got, got, tc.want)
			}
		})
	}
}

func TestValidateConfirm(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(c *ConfirmConf)
		want   []string
	}{
		{"defaults", func(*ConfirmConf) {}, nil},
		{"allow", func(c *ConfirmConf) { c.WithoutClientSupport = ConfirmAllow }, nil},
		{"unknown support", func(c *ConfirmConf) { c.WithoutClientSupport = "ask" },
			[]string{`confirm.without_client_support "ask": want "refuse" or "allow"`}},
		{"timeout bounds", func(c *ConfirmConf) { c.AnswerTimeout = Duration{time.Second} },
			[]string{`confirm.answer_timeout 1s: must be between 10s and 1h`}},
		{"bad conditions", func(c *ConfirmConf) {
			c.Tools = map[string][]string{"fs_delete": {"recursive", "files>many"}, "proc_kill": make([]string, 17)}
		}, []string{
			`confirm.tools.fs_delete[1] "files>many": > takes a whole number`,
			`confirm.tools.proc_kill: 17 conditions; at most 16`,
			`confirm.tools.proc_kill[0] "" is not a condition`,
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default("/", 0, envMap(nil))
			tc.mutate(&c.Confirm)
			err := errorsOf(c.validateConfirm())
			if len(tc.want) == 0 {
				if err != "" {
					t.Fatalf("unexpected errors: %s", err)
				}
				return
			}
			for _, w := range tc.want {
				if !strings.Contains(err, w) {
					t.Errorf("errors %q lack %q", err, w)
				}
			}
		})
	}
}

func errorsOf(errs []error) string {
	var s []string
	for _, e := range errs {
		s = append(s, e.Error())
	}
	return strings.Join(s, "\n")
}

// A [confirm.tools] table replaces the conditions of the tools it names,
// an empty list asks never, and the other defaults stay: an operator who
// adds bpftrace_exec_program does not lose the recursive-delete check.
func TestLoadConfirmToolsMerge(t *testing.T) {
	c, _, err := loadDoc(t, "[confirm]\nwithout_client_support = \"allow\"\n[confirm.tools]\nbpftrace_exec_program = [\"always\"]\nfs_apply_diff = []\n")
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultConfirm()
	want.WithoutClientSupport = ConfirmAllow
	want.Tools["bpftrace_exec_program"] = []string{"always"}
	want.Tools["fs_apply_diff"] = []string{}
	if diff := cmp.Diff(c.Confirm, want); diff != "" {
		t.Errorf("confirm (-got +want):\n%s", diff)
	}
	conds, err := c.Confirm.Conditions()
	if err != nil {
		t.Fatal(err)
	}
	if got := conds["proc_kill"]; len(got) != 2 || got[0] != (Condition{Fact: "signal", Op: "=", Value: "KILL"}) || got[1].Fact != "other_user" {
		t.Errorf("proc_kill conditions = %+v", got)
	}
	if !conds["bpftrace_exec_program"][0].Always() || len(conds["fs_apply_diff"]) != 0 {
		t.Errorf("conditions = %+v", conds)
	}
}

// A misspelt condition in the file stops the server at start-up, naming
// the key: a guardrail that silently matches nothing is worse than none.
func TestLoadConfirmRefusesBadConditions(t *testing.T) {
	_, _, err := loadDoc(t, "[confirm.tools]\nfs_delete = [\"recursive=\"]\n")
	if err == nil || !strings.Contains(err.Error(), `confirm.tools.fs_delete[0] "recursive="`) {
		t.Fatalf("got %v, want the bad condition named", err)
	}
}

// TestFactChecksMatchTheirPatterns holds the hand-written checks of a fact's
// name and value to the patterns the configuration documents, on the edges
// of each class and length.
func TestFactChecksMatchTheirPatterns(t *testing.T) {
	name := regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	value := regexp.MustCompile(`^[A-Za-z0-9_.:/+-]{1,64}$`)
	var inputs []string
	for c := 0; c < 256; c++ {
		inputs = append(inputs, string([]byte{byte(c)}), "a"+string([]byte{byte(c)}), string([]byte{byte(c)})+"a")
	}
	for _, n := range []int{0, 1, 63, 64, 65, 200} {
		inputs = append(inputs, strings.Repeat("a", n), strings.Repeat("K", n), "x"+strings.Repeat("_9", n/2))
	}
	inputs = append(inputs, "signal", "other_user", "files", "9lives", "_x", "a\n", "é", "KILL TERM", "1.5", "a/b:c+d-e")
	for _, s := range inputs {
		if got, want := ValidName(s), name.MatchString(s); got != want {
			t.Errorf("ValidName(%q) = %v, the pattern says %v", s, got, want)
		}
		if got, want := validFactValue(s), value.MatchString(s); got != want {
			t.Errorf("validFactValue(%q) = %v, the pattern says %v", s, got, want)
		}
	}
}
