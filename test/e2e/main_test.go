// Package e2e drives the built hostmcp binary through real MCP clients over
// stdio and HTTP, the way Claude Code or an operator's agent would.
//
// A test that touches nothing but its own server, state directory and
// roots, and takes long enough to matter, calls t.Parallel: the package
// runs last in `go test ./...`, mostly alone, and a test waiting on its
// server leaves a core idle. Tests that set the environment, count the
// machine's processes, or measure, stay sequential.
package e2e

import (
	"os"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// binary is the hostmcp built once for the whole package, as make build
// builds it: the tests drive what ships, and without DWARF and a symbol
// table the link, on the path of every run of this package, is about a
// third cheaper.
var binary string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithHostmcp(m, &binary, "-trimpath", "-ldflags", "-s -w"))
}
