package hostinfo

import (
	"os"
	"path/filepath"
	"testing"
)

// A partition is traced as its disk, found the way sysfs links them:
// class/block/vda1 -> devices/.../vda/vda1, with a partition file.
func TestDiskOfPartition(t *testing.T) {
	root := t.TempDir()
	part := filepath.Join(root, "devices", "virtio1", "block", "vda", "vda1")
	if err := os.MkdirAll(part, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(part, "partition"), []byte("1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	class := filepath.Join(root, "class", "block")
	if err := os.MkdirAll(class, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, target := range map[string]string{"vda1": part, "vda": filepath.Dir(part)} {
		if err := os.Symlink(target, filepath.Join(class, name)); err != nil {
			t.Fatal(err)
		}
	}
	host := New(Roots{Sys: root})
	for in, want := range map[string]string{"..": "..", "vda1": "vda", "vda": "vda", "": "", "8:0": "8:0", "nope": "nope"} {
		if got := host.DiskOf(in); got != want {
			t.Errorf("DiskOf(%q) = %q, want %q", in, got, want)
		}
	}
}
