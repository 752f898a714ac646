package main

import (
	"archive/tar"
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/types"

	"github.com/hostmcp/hostmcp/internal/testutil"
)

// buildTestImage builds the image of the test binary into a temporary
// directory.
func buildTestImage(t *testing.T) string {
	t.Helper()
	path, err := buildImage(&imageOptions{Binary: hostmcp.Path(t), Out: t.TempDir(), Version: "1.2.3", Arch: runtime.GOARCH, Created: time.Unix(1700000000, 0).UTC()})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// untar unpacks the oci-archive into a directory.
func untar(t *testing.T, archive string) string {
	t.Helper()
	dir := t.TempDir()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return dir
		}
		if err != nil {
			t.Fatal(err)
		}
		target := filepath.Join(dir, filepath.Clean("/"+h.Name))
		if h.Typeflag == tar.TypeDir {
			if err := os.MkdirAll(target, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(target, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The image is reproducible, an OCI layout that go-containerregistry reads
// back, configured to serve, and its one layer holds the very binary, which
// runs.
func TestImage(t *testing.T) {
	testutil.Slow(t, "builds the OCI image twice")
	a, b := buildTestImage(t), buildTestImage(t)
	if sum(t, a) != sum(t, b) {
		t.Error("two builds of the same binary differ")
	}
	idx, err := layout.ImageIndexFromPath(untar(t, a))
	if err != nil {
		t.Fatalf("not an OCI layout: %v", err)
	}
	im, err := idx.IndexManifest()
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Manifests) != 1 || im.Manifests[0].MediaType != types.OCIManifestSchema1 || im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "hostmcp:1.2.3" {
		t.Fatalf("index: %+v", im.Manifests)
	}
	img, err := idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	if cf.OS != "linux" || cf.Architecture != runtime.GOARCH || !cf.Created.Time.Equal(time.Unix(1700000000, 0)) {
		t.Errorf("platform %s/%s created %v", cf.OS, cf.Architecture, cf.Created)
	}
	if diff := cmp.Diff(append(cf.Config.Entrypoint, cf.Config.Cmd...), append([]string{"/usr/bin/hostmcp"}, imageCmd()...)); diff != "" {
		t.Errorf("command (-got +want):\n%s", diff)
	}
	if cf.Config.WorkingDir != "/srv" || cf.Config.Labels["org.opencontainers.image.version"] != "1.2.3" {
		t.Errorf("config: %+v", cf.Config)
	}
	layers, err := img.Layers()
	if err != nil || len(layers) != 1 {
		t.Fatalf("layers: %d %v", len(layers), err)
	}
	rc, err := layers[0].Uncompressed()
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	want, err := os.ReadFile(hostmcp.Path(t))
	if err != nil {
		t.Fatal(err)
	}
	modes := map[string]int64{}
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		modes[h.Name] = h.Mode
		if h.Uid != 0 || h.Gid != 0 || !h.ModTime.Equal(time.Unix(1700000000, 0)) {
			t.Errorf("%s: owner %d:%d time %v", h.Name, h.Uid, h.Gid, h.ModTime)
		}
		if h.Name == "usr/bin/hostmcp" {
			got, _ := io.ReadAll(tr)
			if !bytes.Equal(got, want) {
				t.Error("usr/bin/hostmcp is not the binary")
			}
			bin := filepath.Join(t.TempDir(), "hostmcp")
			if err := os.WriteFile(bin, got, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(bin, "version").Output(); err != nil || !bytes.HasPrefix(out, []byte("hostmcp ")) {
				t.Errorf("the image's binary does not run: %q %v", out, err)
			}
		}
	}
	for name, mode := range map[string]int64{"usr/bin/hostmcp": 0o755, "var/lib/hostmcp/": 0o700, "srv/": 0o755, "tmp/": 0o1777, "etc/passwd": 0o644} {
		if modes[name] != mode {
			t.Errorf("%s: mode %o, want %o", name, modes[name], mode)
		}
	}
}
