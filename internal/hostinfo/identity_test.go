package hostinfo

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestIdentityFromFixture(t *testing.T) {
	t.Parallel()
	proc := t.TempDir()
	for name, v := range map[string]string{"hostname": "web-1\n", "random/boot_id": "0f1e2d3c-aaaa-bbbb-cccc-000000000001\n"} {
		p := filepath.Join(proc, "sys", "kernel", name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(v), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := New(Roots{Proc: proc}).Identity()
	if err != nil {
		t.Fatal(err)
	}
	if want := (Identity{Hostname: "web-1", BootID: "0f1e2d3c-aaaa-bbbb-cccc-000000000001"}); got != want {
		t.Errorf("Identity = %+v, want %+v", got, want)
	}
	if _, err := New(Roots{Proc: t.TempDir()}).Identity(); err == nil {
		t.Error("Identity of an empty /proc succeeded")
	}
}

// The live host's identity is what the kernel's files say.
func TestIdentityLive(t *testing.T) {
	t.Parallel()
	got, err := New(Roots{}).Identity()
	if err != nil {
		t.Fatal(err)
	}
	boot, err := os.ReadFile("/proc/sys/kernel/random/boot_id")
	if err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if got.BootID != strings.TrimSpace(string(boot)) || got.Hostname != host {
		t.Errorf("Identity = %+v, want boot id %s and host %s", got, boot, host)
	}
}
