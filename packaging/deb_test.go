package main

import (
	"bytes"
	"crypto/sha256"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
	"github.com/hostmcp/hostmcp/internal/testutil"
)

// buildTestDeb builds the .deb of the test binary into a temporary
// directory.
func buildTestDeb(t *testing.T) string {
	t.Helper()
	path, err := buildDeb(&debOptions{Repo: "..", Binary: hostmcp.Path(t), Out: t.TempDir(), Version: buildinfo.Release, Arch: runtime.GOARCH, MTime: time.Unix(1700000000, 0)})
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// Two builds of one binary are the same bytes, and the package declares
// what a maintainer would: its conffile, its scripts, its recommends.
func TestDebContents(t *testing.T) {
	testutil.Slow(t, "builds the .deb twice")
	testutil.RequireBinary(t, "dpkg-deb")
	a, b := buildTestDeb(t), buildTestDeb(t)
	if sum(t, a) != sum(t, b) {
		t.Error("two builds of the same binary differ")
	}
	info := dpkgDeb(t, "--info", a)
	for _, want := range []string{"Package: hostmcp", "Version: " + buildinfo.Release, "Architecture: " + runtime.GOARCH, "Recommends: linux-perf, bpftrace, ripgrep", "postinst", "prerm", "postrm", "conffiles"} {
		if !strings.Contains(info, want) {
			t.Errorf("dpkg-deb --info lacks %q:\n%s", want, info)
		}
	}
	if got := dpkgDeb(t, "--field", a, "Package"); strings.TrimSpace(got) != "hostmcp" {
		t.Errorf("Package field %q", got)
	}
	conf := filepath.Join(t.TempDir(), "control")
	if out, err := exec.Command("dpkg-deb", "--control", a, conf).CombinedOutput(); err != nil {
		t.Fatalf("dpkg-deb --control: %v\n%s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(conf, "conffiles")); err != nil || strings.TrimSpace(string(b)) != "/etc/hostmcp/hostmcp.toml" {
		t.Errorf("conffiles: %q %v", b, err)
	}
	contents := dpkgDeb(t, "--contents", a)
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`-rwxr-xr-x root/root .* \./usr/bin/hostmcp\n`),
		regexp.MustCompile(`-rw-r--r-- root/root .* \./lib/systemd/system/hostmcp.service\n`),
		regexp.MustCompile(`-rw-r--r-- root/root .* \./etc/hostmcp/hostmcp.toml\n`),
		regexp.MustCompile(`\./usr/share/man/man1/hostmcp.1.gz\n`),
		regexp.MustCompile(`\./usr/share/bash-completion/completions/hostmcp\n`),
		regexp.MustCompile(`\./usr/share/zsh/vendor-completions/_hostmcp\n`),
		regexp.MustCompile(`\./usr/share/doc/hostmcp/copyright\n`),
	} {
		if !want.MatchString(contents) {
			t.Errorf("contents lack %s:\n%s", want, contents)
		}
	}
	if strings.Contains(contents, "/etc/hostmcp/token") {
		t.Error("the package ships a token; every host must make its own")
	}
}

// machine is a copy of this machine to install into: an overlay whose
// lower layer is / and whose upper layer, on a tmpfs of its own, takes
// every write, with /dev, /proc and /sys bound in. dpkg and everything the
// package runs are chrooted into it, so the test sees what an install on
// this machine does without changing the machine, its dpkg database or
// its lock; upper is what the package changed.
type machine struct {
	root, upper string
}

func newMachine(t *testing.T) *machine {
	t.Helper()
	testutil.RequireRoot(t)
	dir := t.TempDir()
	testutil.Mount(t, "hostmcp-deb-test", dir, "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, "size=512m,mode=0755")
	m := &machine{root: filepath.Join(dir, "root"), upper: filepath.Join(dir, "upper")}
	work := filepath.Join(dir, "work")
	for _, d := range []string{m.root, m.upper, work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testutil.Mount(t, "overlay", m.root, "overlay", 0, "lowerdir=/,upperdir="+m.upper+",workdir="+work)
	for _, api := range []string{"/dev", "/proc", "/sys"} {
		testutil.BindMount(t, api, filepath.Join(m.root, api))
	}
	return m
}

// run runs a command chrooted into the machine.
func (m *machine) run(name string, args ...string) (string, error) {
	cmd := exec.Command(name, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: m.root}
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (m *machine) must(t *testing.T, name string, args ...string) string {
	t.Helper()
	out, err := m.run(name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// exists reports whether path exists in the machine.
func (m *machine) exists(path string) bool {
	_, err := os.Lstat(filepath.Join(m.root, path))
	return err == nil
}

// The package installs, reinstalls, removes and purges cleanly with dpkg, as
// an operator would do it on this machine: the binary runs, the token is
// made once and private, the installed unit verifies, the packaged
// configuration passes doctor, an operator's change to the conffile
// survives a reinstall, remove keeps the configuration, and purge leaves
// nothing of the package: what it changed on the machine is dpkg's own
// bookkeeping, and nothing else.
func TestDebInstallRemovePurge(t *testing.T) {
	testutil.RequireBinary(t, "dpkg")
	testutil.RequireBinary(t, "systemd-analyze")
	m := newMachine(t)
	if out, _ := m.run("dpkg-query", "-W", "-f=${Status}", "hostmcp"); strings.Contains(out, "installed") {
		t.Fatalf("a hostmcp package is installed on this machine (%s); the test needs a machine without one", out)
	}
	deb := buildTestDeb(t)
	if err := os.Link(deb, filepath.Join(m.upper, "hostmcp.deb")); err != nil {
		data, rerr := os.ReadFile(deb)
		if rerr != nil {
			t.Fatal(rerr)
		}
		if err := os.WriteFile(filepath.Join(m.root, "hostmcp.deb"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	m.must(t, "dpkg", "--install", "/hostmcp.deb")
	if out := m.must(t, "/usr/bin/hostmcp", "version"); !strings.HasPrefix(out, "hostmcp "+buildinfo.Release+" ") {
		t.Errorf("installed hostmcp version: %q", out)
	}
	token := readToken(t, m)
	if out, err := m.run("systemd-analyze", "verify", "--man=no", "/lib/systemd/system/hostmcp.service"); err != nil || out != "" {
		t.Errorf("systemd-analyze verify of the installed unit: %v\n%s", err, out)
	}
	if out, err := m.run("/usr/bin/hostmcp", "doctor", "--config", "/etc/hostmcp/hostmcp.toml", "--http", "127.0.0.1:8765", "--token-file", "/etc/hostmcp/token"); err != nil {
		t.Errorf("doctor on the packaged configuration: %v\n%s", err, out)
	}
	if out, err := m.run("man", "-w", "hostmcp"); err != nil || strings.TrimSpace(out) != "/usr/share/man/man1/hostmcp.1.gz" {
		t.Errorf("man -w hostmcp: %q %v", out, err)
	}

	// An operator's change to the conffile, and the token, survive a
	// reinstall.
	confPath := filepath.Join(m.root, "etc/hostmcp/hostmcp.toml")
	conf, err := os.ReadFile(confPath)
	if err != nil {
		t.Fatal(err)
	}
	changed := append(conf, []byte("\n# changed by the operator\n")...)
	if err := os.WriteFile(confPath, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	m.must(t, "dpkg", "--install", "/hostmcp.deb")
	if got, _ := os.ReadFile(confPath); !bytes.Equal(got, changed) {
		t.Error("a reinstall replaced the operator's configuration")
	}
	if readToken(t, m) != token {
		t.Error("a reinstall changed the token")
	}

	m.must(t, "dpkg", "--remove", "hostmcp")
	for _, gone := range []string{"/usr/bin/hostmcp", "/lib/systemd/system/hostmcp.service", "/usr/share/man/man1/hostmcp.1.gz"} {
		if m.exists(gone) {
			t.Errorf("%s left after remove", gone)
		}
	}
	for _, kept := range []string{"/etc/hostmcp/hostmcp.toml", "/etc/hostmcp/token"} {
		if !m.exists(kept) {
			t.Errorf("%s gone after remove (only purge removes configuration)", kept)
		}
	}
	m.must(t, "dpkg", "--purge", "hostmcp")
	for _, gone := range []string{"/etc/hostmcp", "/var/lib/hostmcp"} {
		if m.exists(gone) {
			t.Errorf("%s left after purge", gone)
		}
	}
	if out, _ := m.run("dpkg-query", "-W", "-f=${Status}", "hostmcp"); strings.Contains(out, "installed") || strings.Contains(out, "config-files") {
		t.Errorf("dpkg still knows hostmcp after purge: %s", out)
	}
	m.rm(t, "/hostmcp.deb")
	for _, p := range m.changes(t) {
		if !dpkgBookkeeping(p) {
			t.Errorf("purge left %s changed", p)
		}
	}
}

// dpkgBookkeeping are the files dpkg itself changes on any install (its
// database and log, man-db's index), and what systemd-analyze writes under
// /run while it verifies; the package's own files are none of them. A state
// directory this machine had before (made by a hostmcp run as root) is
// removed by purge, as the one doctor made would be.
func dpkgBookkeeping(p string) bool {
	if p == "/var/lib/hostmcp (removed)" {
		return true
	}
	for _, prefix := range []string{"/var/lib/dpkg/", "/var/log/dpkg.log", "/var/cache/man/", "/run/systemd/"} {
		if strings.HasPrefix(p, prefix) {
			return true
		}
	}
	return false
}

func (m *machine) rm(t *testing.T, p string) {
	t.Helper()
	if err := os.Remove(filepath.Join(m.root, p)); err != nil {
		t.Fatal(err)
	}
}

// changes lists the files the overlay's upper layer holds: every file
// written, created or removed (a whiteout) in the machine. Directories are
// left out: the overlay copies up each one above a change, and a directory
// the package created and removed leaves nothing.
func (m *machine) changes(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(m.upper, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(m.upper, p)
		if d.Type()&fs.ModeCharDevice != 0 {
			rel += " (removed)" // an overlay whiteout: removed from the lower layer
		}
		out = append(out, "/"+rel)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// readToken checks the token postinst made: 64 hex digits, a regular file
// only root can read.
func readToken(t *testing.T, m *machine) string {
	t.Helper()
	path := filepath.Join(m.root, "etc/hostmcp/token")
	fi, err := os.Lstat(path)
	if err != nil {
		t.Fatalf("no token after install: %v", err)
	}
	if !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
		t.Errorf("token mode %v, want a regular file 0600", fi.Mode())
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^[0-9a-f]{64}$`).Match(b) {
		t.Errorf("token %d bytes, want 64 hex digits", len(b))
	}
	return string(b)
}

func dpkgDeb(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("dpkg-deb", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("dpkg-deb %v: %v\n%s", args, err, out)
	}
	return string(out)
}

func sum(t *testing.T, path string) [32]byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return sha256.Sum256(b)
}
