package main

import (
	"archive/tar"
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"time"

	v1 "github.com/google/go-containerregistry/pkg/v1"
	"github.com/google/go-containerregistry/pkg/v1/empty"
	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/types"
)

// imageOptions say what goes into the OCI image.
type imageOptions struct {
	Binary  string
	Out     string
	Version string
	Arch    string
	Created time.Time // every file's and the image's time
}

// imageCmd is what the image runs by default: HTTP on the loopback of the
// network it is given (the host's, with --network=host), the state in its
// own directory, the empty /srv as the root (the operator mounts what the
// agent may read below it and names it with --root).
func imageCmd() []string {
	return []string{"serve", "--http", "127.0.0.1:8765", "--state-dir", "/var/lib/hostmcp"}
}

// buildImage writes hostmcp_VERSION_ARCH.oci.tar, an OCI image layout in a
// tar (podman load -i, docker load -i, skopeo copy oci-archive:), and
// returns its path. One layer, built as ko builds one, from the static
// binary and without a container daemon: /usr/bin/hostmcp, the state
// directory (0700), /srv as the default root, /tmp, and a passwd and group
// naming root and nobody. perf, bpftrace and ripgrep are not in it. Every
// timestamp is Created, entries are sorted and owned by root, so the same
// binary gives the same bytes.
func buildImage(o *imageOptions) (string, error) {
	bin, err := os.ReadFile(o.Binary)
	if err != nil {
		return "", err
	}
	layerTar, err := rootfs(bin, o.Created)
	if err != nil {
		return "", err
	}
	layer, err := tarball.LayerFromOpener(func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(layerTar)), nil
	}, tarball.WithMediaType(types.OCILayer))
	if err != nil {
		return "", fmt.Errorf("making the layer: %w", err)
	}
	img := mutate.MediaType(empty.Image, types.OCIManifestSchema1)
	img = mutate.ConfigMediaType(img, types.OCIConfigJSON)
	img, err = mutate.Append(img, mutate.Addendum{Layer: layer, History: v1.History{
		Created: v1.Time{Time: o.Created}, CreatedBy: "go run ./packaging image", Comment: "hostmcp " + o.Version,
	}})
	if err != nil {
		return "", err
	}
	cf, err := img.ConfigFile()
	if err != nil {
		return "", err
	}
	cf = cf.DeepCopy()
	cf.Architecture, cf.OS = o.Arch, "linux"
	cf.Created = v1.Time{Time: o.Created}
	cf.Config.Entrypoint = []string{"/usr/bin/hostmcp"}
	cf.Config.Cmd = imageCmd()
	cf.Config.WorkingDir = "/srv"
	cf.Config.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	cf.Config.StopSignal = "SIGTERM"
	cf.Config.Labels = map[string]string{
		"org.opencontainers.image.title":       "hostmcp",
		"org.opencontainers.image.description": "MCP server to operate and diagnose a Linux host",
		"org.opencontainers.image.version":     o.Version,
	}
	if img, err = mutate.ConfigFile(img, cf); err != nil {
		return "", err
	}

	dir, err := os.MkdirTemp("", "hostmcp-image-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(dir)
	p, err := layout.Write(dir, empty.Index)
	if err != nil {
		return "", err
	}
	if err := p.AppendImage(img, layout.WithAnnotations(map[string]string{"org.opencontainers.image.ref.name": "hostmcp:" + o.Version})); err != nil {
		return "", fmt.Errorf("writing the image layout: %w", err)
	}
	path := filepath.Join(o.Out, fmt.Sprintf("hostmcp_%s_%s.oci.tar", o.Version, o.Arch))
	return path, tarDir(dir, path, o.Created)
}

// rootfs is the image's one layer, uncompressed.
func rootfs(bin []byte, mtime time.Time) ([]byte, error) {
	type entry struct {
		name string
		mode int64
		data []byte // nil for a directory
	}
	entries := []entry{
		{"etc/", 0o755, nil},
		{"etc/group", 0o644, []byte("root:x:0:\nnogroup:x:65534:\n")},
		{"etc/passwd", 0o644, []byte("root:x:0:0:root:/root:/usr/sbin/nologin\nnobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")},
		{"srv/", 0o755, nil},
		{"tmp/", 0o1777, nil},
		{"usr/", 0o755, nil},
		{"usr/bin/", 0o755, nil},
		{"usr/bin/hostmcp", 0o755, bin},
		{"var/", 0o755, nil},
		{"var/lib/", 0o755, nil},
		{"var/lib/hostmcp/", 0o700, nil},
	}
	var b bytes.Buffer
	tw := tar.NewWriter(&b)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, ModTime: mtime, Uname: "root", Gname: "root", Format: tar.FormatPAX}
		if e.data == nil {
			h.Typeflag = tar.TypeDir
		} else {
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// tarDir writes the tree at dir as a tar at path, entries sorted, owned by
// root and dated mtime: an oci-archive that is the same bytes every time.
func tarDir(dir, path string, mtime time.Time) error {
	var names []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		names = append(names, rel)
		return nil
	})
	if err != nil {
		return err
	}
	sort.Strings(names)
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	tw := tar.NewWriter(f)
	for _, name := range names {
		full := filepath.Join(dir, name)
		fi, err := os.Lstat(full)
		if err != nil {
			f.Close()
			return err
		}
		h := &tar.Header{Name: name, Mode: 0o644, ModTime: mtime, Typeflag: tar.TypeReg, Size: fi.Size(), Format: tar.FormatPAX}
		if fi.IsDir() {
			h.Name, h.Mode, h.Typeflag, h.Size = name+"/", 0o755, tar.TypeDir, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			f.Close()
			return err
		}
		if !fi.IsDir() {
			data, err := os.ReadFile(full)
			if err != nil {
				f.Close()
				return err
			}
			if _, err := tw.Write(data); err != nil {
				f.Close()
				return err
			}
		}
	}
	if err := tw.Close(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
