package main

import (
	"testing"

	"github.com/hostmcp/hostmcp/internal/cli"
)

// Every command the table describes (and so help, completion and the man
// page show) has a handler.
func TestEveryCommandHasAHandler(t *testing.T) {
	for _, c := range cli.Commands() {
		if handler(c.Name) == nil {
			t.Errorf("command %q has no handler", c.Name)
		}
	}
}

// Every common flag reaches the configuration: given each, configFlags
// sets its setting.
func TestCommonFlagsReachTheConfig(t *testing.T) {
	serve, _ := cli.Lookup("serve")
	var args []string
	for _, f := range serve.AllFlags() {
		args = append(args, "--"+f.Name)
		if f.Arg != "" {
			args = append(args, "v-"+f.Name)
		}
	}
	p, err := cli.Parse(serve, args)
	if err != nil {
		t.Fatal(err)
	}
	f := configFlags(p)
	got := map[string]bool{
		"config": f.ConfigPath == "v-config", "root": len(f.Roots) == 1 && f.Roots[0] == "v-root",
		"toolsets": f.Toolsets == "v-toolsets", "read-only": f.ReadOnly != nil && *f.ReadOnly,
		"state-dir": f.StateDir == "v-state-dir", "log-level": f.LogLevel == "v-log-level",
		"http": f.HTTPAddr == "v-http", "token-file": f.TokenFile == "v-token-file",
	}
	for _, fl := range serve.AllFlags() {
		if !got[fl.Name] {
			t.Errorf("--%s does not reach the configuration", fl.Name)
		}
	}
}
