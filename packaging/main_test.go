package main

import (
	"os"
	"testing"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// binary is hostmcp, built once for the package's tests as make build
// builds it (static).
var binary string

func TestMain(m *testing.M) {
	os.Exit(testutil.RunWithHostmcp(m, &binary, "-trimpath", "-ldflags", "-s -w"))
}
