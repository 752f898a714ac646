package main

import (
	"os"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// hostmcp is built for the package's tests as make build builds it
// (static), on the first test that needs it: under `go test -short` none
// does, so the short run builds nothing.
var hostmcp = &testutil.Hostmcp{Flags: []string{"-trimpath", "-ldflags", "-s -w"}}

func TestMain(m *testing.M) { os.Exit(hostmcp.Main(m)) }
