package hostinfo

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree makes files (with their contents) and symbolic links (a value
// starting with "->") under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := cutLink(body); ok {
			err = os.Symlink(target, p)
		} else {
			err = os.WriteFile(p, []byte(body), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

func cutLink(s string) (string, bool) {
	if len(s) > 2 && s[:2] == "->" {
		return s[2:], true
	}
	return "", false
}

// The per-process readers read under the Proc root, not /proc: a pid that
// exists only in the fixture is found, named and resolved.
func TestProcessFilesUnderRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"proc/4242/comm":      "fixture-daemon\n",
		"proc/4242/task/4243": "",
		"proc/4242/cwd":       "->/srv/fixture",
		"proc/4242/fd/3":      "->/var/log/fixture.log",
	})
	h := New(Roots{Proc: filepath.Join(root, "proc"), Sys: filepath.Join(root, "sys")})
	if !h.ProcessExists(4242) || h.ProcessExists(4244) || h.ProcessExists(0) || h.ProcessExists(-1) {
		t.Error("ProcessExists: want 4242 only")
	}
	if !h.ThreadOf(4243, 4242) || h.ThreadOf(4242, 4243) || h.ThreadOf(-1, 4242) {
		t.Error("ThreadOf: want 4243 of 4242 only")
	}
	if c, err := h.Comm(4242); err != nil || c != "fixture-daemon" {
		t.Errorf("Comm(4242) = %q, %v; want fixture-daemon", c, err)
	}
	if _, err := h.Comm(4244); err == nil {
		t.Error("Comm(4244) of no process: want an error")
	}
	if d, err := h.Cwd(4242); err != nil || d != "/srv/fixture" {
		t.Errorf("Cwd(4242) = %q, %v", d, err)
	}
	if p, err := h.FDTarget(4242, 3); err != nil || p != "/var/log/fixture.log" {
		t.Errorf("FDTarget(4242, 3) = %q, %v", p, err)
	}
	if _, err := h.FDTarget(4242, -1); err == nil {
		t.Error("FDTarget(4242, -1): want an error")
	}
}

// Block devices are named and listed from the Sys root; a name that is
// not a device number never reaches a path.
func TestBlockDevicesUnderRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"sys/devices/virtual/block/fixdisk/dev":    "254:0\n",
		"sys/devices/virtual/block/fixdisk/uevent": "MAJOR=254\nMINOR=0\nDEVNAME=fixdisk\n",
		"sys/class/block/fixdisk":                  "->../../devices/virtual/block/fixdisk",
		"sys/dev/block/254:0":                      "->../../devices/virtual/block/fixdisk",
		"sys/dev/block/254:1/uevent":               "MAJOR=254\nMINOR=1\nDEVNAME=fixpart\n",
		"sys/class/block/broken/dev":               "not a number\n",
	})
	h := New(Roots{Sys: filepath.Join(root, "sys")})
	for dev, want := range map[string]string{"254:0": "fixdisk", "254:1": "fixpart", "254:9": "254:9", "../254:0": "../254:0", "x": "x"} {
		if got := h.BlockName(dev); got != want {
			t.Errorf("BlockName(%q) = %q, want %q", dev, got, want)
		}
	}
	if diff := cmp.Diff(h.BlockDevices(), []BlockDevice{{Name: "fixdisk", Major: 254, Minor: 0}}); diff != "" {
		t.Errorf("BlockDevices (-got +want):\n%s", diff)
	}
}

// A process's mapped files are read under the Proc root, each path once,
// and reached through the process's own root there.
func TestMappedFilesUnderRoot(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{"proc/4242/maps": "" +
		"55d0c0000000-55d0c0001000 r--p 00000000 fe:01 1 /usr/sbin/fixture\n" +
		"7f0000000000-7f0000001000 r--p 00000000 fe:01 2 /usr/lib/x86_64-linux-gnu/libc.so.6\n" +
		"7f0000001000-7f0000002000 r-xp 00001000 fe:01 2 /usr/lib/x86_64-linux-gnu/libc.so.6\n" +
		"7f0000003000-7f0000004000 rw-p 00000000 00:00 0 \n" +
		"7ffd00000000-7ffd00001000 r-xp 00000000 00:00 0 [vdso]\n"})
	h := New(Roots{Proc: filepath.Join(root, "proc")})
	got, err := h.MappedFiles(4242)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(got, []string{"/usr/sbin/fixture", "/usr/lib/x86_64-linux-gnu/libc.so.6"}); diff != "" {
		t.Errorf("MappedFiles (-got +want):\n%s", diff)
	}
	if _, err := h.MappedFiles(4243); err == nil {
		t.Error("MappedFiles of no process: want an error")
	}
	if got, want := h.ThroughRoot(4242, "/usr/lib/libc.so.6"), filepath.Join(root, "proc/4242/root/usr/lib/libc.so.6"); got != want {
		t.Errorf("ThroughRoot = %q, want %q", got, want)
	}
}
