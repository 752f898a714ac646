package config

import (
	"strings"
	"testing"
)

// TestHostDefaults: without a [host] table hostmcp reads the kernel's
// interfaces where a host mounts them.
func TestHostDefaults(t *testing.T) {
	c := Default("/", 0, envMap(nil))
	if c.Host.Proc != "/proc" || c.Host.Sys != "/sys" {
		t.Errorf("Host = %+v, want /proc and /sys", c.Host)
	}
}

// TestHostValidate: [host] proc and sys must be absolute and clean, since
// every reader of the host joins paths under them; each bad one is named.
func TestHostValidate(t *testing.T) {
	tests := []struct {
		name      string
		proc, sys string
		want      []string // each must appear; none means valid
	}{
		{"container mounts", "/host/proc", "/host/sys", nil},
		{"relative", "host/proc", "sys", []string{
			`host.proc "host/proc": must be an absolute, clean path such as "/host/proc"`,
			`host.sys "sys": must be an absolute, clean path such as "/host/sys"`,
		}},
		{"not clean", "/host/proc/", "/host/../sys", []string{`host.proc "/host/proc/": must be an absolute, clean path`, `host.sys "/host/../sys"`}},
		{"empty", "", "/sys", []string{`host.proc "": must be an absolute, clean path`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := Default("/", 0, envMap(nil))
			c.Host = HostConf{Proc: tc.proc, Sys: tc.sys}
			err := c.Validate()
			if len(tc.want) == 0 {
				if err != nil {
					t.Fatalf("Validate: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("Validate succeeded, want errors")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error:\n%s\nwant it to contain %q", err, w)
				}
			}
		})
	}
}

// TestHostFromFile: the [host] table of a file is read strictly, as a
// DaemonSet's ConfigMap gives it.
func TestHostFromFile(t *testing.T) {
	c := Default("/", 0, envMap(nil))
	if err := c.decode("test", []byte("[host]\nproc = \"/host/proc\"\nsys = \"/host/sys\"\n")); err != nil {
		t.Fatal(err)
	}
	if c.Host != (HostConf{Proc: "/host/proc", Sys: "/host/sys"}) {
		t.Errorf("Host = %+v", c.Host)
	}
	if err := c.decode("test", []byte("[host]\nprocfs = \"/x\"\n")); err == nil || !strings.Contains(err.Error(), "host.procfs") {
		t.Errorf("unknown key: err = %v, want it named", err)
	}
}
