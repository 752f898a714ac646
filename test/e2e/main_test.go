// Package e2e drives the built hostmcp binary through real MCP clients over
// stdio and HTTP, the way Claude Code or an operator's agent would.
//
// A test that touches nothing but its own server, state directory and
// roots calls t.Parallel: the package runs last in `go test ./...`, mostly
// alone, and a test waiting on its server leaves a core idle. Tests that
// set the environment, count the machine's processes, kill servers, or
// measure, stay sequential.
package e2e

import (
	"flag"
	"os"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// binary is the hostmcp built once for the whole package, as make build
// builds it: the tests drive what ships, and without DWARF and a symbol
// table the link, on the path of every run of this package, is about a
// third cheaper.
var binary string

// parallel is how many parallel tests run at once unless -parallel says:
// more than the cores (go test's default), since most of them wait on
// their server (a rate limit's token, sampling windows, scrapes) rather
// than compute.
const parallel = "4"

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		if err := flag.Set("test.parallel", parallel); err != nil {
			panic(err) // the testing package renamed its flag
		}
	}
	os.Exit(testutil.RunWithHostmcp(m, &binary, "-trimpath", "-ldflags", "-s -w"))
}
