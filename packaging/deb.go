package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/goreleaser/nfpm/v2"
	_ "github.com/goreleaser/nfpm/v2/deb" // registers the deb packager
	"github.com/goreleaser/nfpm/v2/files"

	"github.com/hostmcp/hostmcp/internal/cli"
)

// debOptions say what goes into the .deb.
type debOptions struct {
	Repo    string // the repository's root: packaging/, README.md, the example
	Binary  string
	Out     string
	Version string
	Arch    string // Go's name, which Debian shares for amd64 and arm64
	MTime   time.Time
}

// buildDeb writes hostmcp_VERSION_ARCH.deb and returns its path. The
// package holds the binary, the service unit (not enabled: the operator
// chooses roots first), /etc/hostmcp/hostmcp.toml as a conffile (dpkg
// keeps an operator's changes on upgrade and asks), the man page, bash and
// zsh completions, and the example configuration and README as
// documentation. No system user: bpftrace refuses to run as anyone but
// root, so the unit runs as root with a bounded capability set instead.
func buildDeb(o *debOptions) (string, error) {
	stage, err := os.MkdirTemp("", "hostmcp-deb-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(stage)
	man, err := gzipped([]byte(cli.Man(o.Version)), o.MTime)
	if err != nil {
		return "", err
	}
	generated := map[string][]byte{
		"hostmcp.1.gz": man,
		"hostmcp.bash": []byte(cli.Bash()),
		"_hostmcp":     []byte(cli.Zsh()),
	}
	for name, data := range generated {
		if err := os.WriteFile(filepath.Join(stage, name), data, 0o644); err != nil {
			return "", err
		}
	}
	repo := func(p string) string { return filepath.Join(o.Repo, p) }
	file := func(src, dst string, mode os.FileMode) *files.Content {
		return &files.Content{Source: src, Destination: dst, FileInfo: &files.ContentFileInfo{Mode: mode, MTime: o.MTime}}
	}
	contents := files.Contents{
		file(o.Binary, "/usr/bin/hostmcp", 0o755),
		file(repo("packaging/hostmcp.service"), "/lib/systemd/system/hostmcp.service", 0o644),
		{Destination: "/etc/hostmcp", Type: files.TypeDir, FileInfo: &files.ContentFileInfo{Mode: 0o755, MTime: o.MTime}},
		{Source: repo("packaging/hostmcp.toml"), Destination: "/etc/hostmcp/hostmcp.toml", Type: files.TypeConfig,
			FileInfo: &files.ContentFileInfo{Mode: 0o644, MTime: o.MTime}},
		file(filepath.Join(stage, "hostmcp.1.gz"), "/usr/share/man/man1/hostmcp.1.gz", 0o644),
		file(filepath.Join(stage, "hostmcp.bash"), "/usr/share/bash-completion/completions/hostmcp", 0o644),
		file(filepath.Join(stage, "_hostmcp"), "/usr/share/zsh/vendor-completions/_hostmcp", 0o644),
		file(repo("hostmcp.example.toml"), "/usr/share/doc/hostmcp/hostmcp.example.toml", 0o644),
		file(repo("README.md"), "/usr/share/doc/hostmcp/README.md", 0o644),
		file(repo("packaging/debian/copyright"), "/usr/share/doc/hostmcp/copyright", 0o644),
	}
	info := nfpm.WithDefaults(&nfpm.Info{
		Name:        "hostmcp",
		Arch:        o.Arch,
		Platform:    "linux",
		Version:     o.Version,
		Section:     "admin",
		Priority:    "optional",
		Maintainer:  "hostmcp maintainers <hostmcp@localhost>",
		Description: "MCP server to operate and diagnose this Linux host\n hostmcp serves the Model Context Protocol over stdio and streamable HTTP so\n that an AI agent can read files inside allowed roots, list and signal\n processes, profile and trace the host with perf and eBPF, within limits\n the kernel enforces and no tool can change.",
		License:     "see /usr/share/doc/hostmcp/copyright",
		MTime:       o.MTime,
		Overridables: nfpm.Overridables{
			Recommends: []string{"linux-perf", "bpftrace", "ripgrep"},
			Contents:   contents,
			Scripts: nfpm.Scripts{
				PostInstall: repo("packaging/debian/postinst"),
				PreRemove:   repo("packaging/debian/prerm"),
				PostRemove:  repo("packaging/debian/postrm"),
			},
		},
	})
	if err := nfpm.PrepareForPackager(info, "deb"); err != nil {
		return "", fmt.Errorf("preparing the package: %w", err)
	}
	pkg, err := nfpm.Get("deb")
	if err != nil {
		return "", err
	}
	path := filepath.Join(o.Out, pkg.ConventionalFileName(info))
	f, err := os.Create(path)
	if err != nil {
		return "", err
	}
	if err := pkg.Package(info, f); err != nil {
		f.Close()
		return "", fmt.Errorf("writing %s: %w", path, err)
	}
	return path, f.Close()
}

// gzipped compresses data with a fixed header time, as Debian ships man
// pages, so the package is the same bytes on every build.
func gzipped(data []byte, mtime time.Time) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	zw.ModTime = mtime
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
