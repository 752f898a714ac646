// Package doctor answers an operator's question "what will hostmcp allow
// here, and is anything wrong?" before it serves: the configuration as it
// loads, the roots and whether they can be used as configured, the
// toolsets and tools served, the programs found, what this kernel and these
// privileges allow (perf, eBPF, BTF, bpftrace, Landlock, user namespaces,
// tracefs, PSI, cgroups), the state directory, the token and the HTTP
// address. What it reads comes from the code that serves (hostinfo's
// capability checks, fsroot's warnings, landlock's ABI, the repl toolset's
// user-namespace check), so the doctor cannot judge differently from the
// server. Gathering (collect.go) is apart from judging (judge.go), which is
// a pure function of the Facts.
package doctor

import (
	"fmt"
	"io"
	"strings"
)

// Status is a check's verdict.
type Status string

// A misconfiguration fails: serve would refuse to start or a configured
// thing cannot work as configured. A capability this host lacks only warns:
// the tools that need it answer CAPABILITY_MISSING and the rest serve.
const (
	OK   Status = "ok"
	Info Status = "info"
	Warn Status = "warn"
	Fail Status = "FAIL"
)

// Check is one line of the report.
type Check struct {
	Status Status
	What   string
	Detail string
	Fix    string // how to put it right; set on Warn and Fail
}

// Section groups checks under a heading.
type Section struct {
	Title  string
	Checks []Check
}

// Report is the doctor's answer.
type Report struct {
	Sections []Section
}

// Count says how many checks have status s.
func (r *Report) Count(s Status) int {
	n := 0
	for _, sec := range r.Sections {
		for _, c := range sec.Checks {
			if c.Status == s {
				n++
			}
		}
	}
	return n
}

// Failed reports whether any check failed: doctor then exits 1.
func (r *Report) Failed() bool { return r.Count(Fail) > 0 }

// Write prints the report, its verdict first.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	switch fails, warns := r.Count(Fail), r.Count(Warn); {
	case fails > 0:
		fmt.Fprintf(&b, "hostmcp doctor: %d problem(s) to fix, %d warning(s)\n", fails, warns)
	case warns > 0:
		fmt.Fprintf(&b, "hostmcp doctor: ready to serve, %d warning(s)\n", warns)
	default:
		b.WriteString("hostmcp doctor: ready to serve\n")
	}
	for _, sec := range r.Sections {
		fmt.Fprintf(&b, "\n%s\n", sec.Title)
		for _, c := range sec.Checks {
			line := fmt.Sprintf("  %-4s  %s", c.Status, c.What)
			if c.Detail != "" {
				line += ": " + c.Detail
			}
			b.WriteString(line + "\n")
			if c.Fix != "" {
				fmt.Fprintf(&b, "        fix: %s\n", c.Fix)
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}
