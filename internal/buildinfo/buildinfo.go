// Package buildinfo says which hostmcp this is: its release version, the
// commit it was built from and the Go toolchain that built it. Packages,
// images and the version command all read it here, so a .deb and the binary
// in it cannot disagree about their version.
package buildinfo

import (
	"fmt"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// Release is the semantic version of the source tree. A release build may
// name another through the linker (see Read); every other build is this
// version, and its commit tells builds of it apart.
const Release = "0.1.0"

// Info describes one build.
type Info struct {
	Version   string // semantic version, without a leading "v"
	Commit    string // the VCS revision, or "unknown"
	Modified  bool   // built from a tree with uncommitted changes
	GoVersion string
	Platform  string // GOOS/GOARCH
}

// semver is a semantic version (semver.org 2.0.0), "v" prefix allowed.
var semver = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^v?(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$`)
})

// IsSemver reports whether v is a semantic version.
func IsSemver(v string) bool { return semver().MatchString(v) }

// Read describes this binary. version and commit are what the linker set
// (-ldflags "-X main.version=v1.2.3 -X main.commit=..."; make build sets the
// commit): the version counts only when it is a semantic version, and the
// commit stamped by the Go toolchain, when it stamped one, wins over the
// linked one (GOFLAGS=-buildvcs=false, as on these machines, stamps none).
// A commit ending in "-modified" was built from a tree with changes.
func Read(version, commit string) Info {
	in := Info{Version: Release, Commit: "unknown", GoVersion: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH}
	if IsSemver(version) {
		in.Version = trimV(version)
	}
	if c, ok := strings.CutSuffix(commit, "-modified"); ok {
		in.Commit, in.Modified = c, true
	} else if commit != "" {
		in.Commit = commit
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return in
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Commit = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		}
	}
	return in
}

// String is the version command's line: "hostmcp 0.1.0 (commit 0123abcd4567,
// modified) go1.26.8 linux/amd64".
func (in Info) String() string {
	commit := in.Commit
	if len(commit) > 12 {
		commit = commit[:12]
	}
	if in.Modified {
		commit += ", modified"
	}
	return fmt.Sprintf("hostmcp %s (commit %s) %s %s", in.Version, commit, in.GoVersion, in.Platform)
}

// Short is the version as the server announces it in initialize and the
// envelope's tool_version: the semantic version, and the commit's first
// twelve characters as build metadata when known.
func (in Info) Short() string {
	if in.Commit == "unknown" {
		return in.Version
	}
	c := in.Commit
	if len(c) > 12 {
		c = c[:12]
	}
	return in.Version + "+" + c
}

func trimV(v string) string {
	if len(v) > 0 && v[0] == 'v' {
		return v[1:]
	}
	return v
}
