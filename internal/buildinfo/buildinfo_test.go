package buildinfo

import (
	"regexp"
	"runtime"
	"strings"
	"testing"
)

func TestReleaseIsSemver(t *testing.T) {
	if !IsSemver(Release) {
		t.Fatalf("Release %q is not a semantic version", Release)
	}
}

func TestRead(t *testing.T) {
	for _, tc := range []struct{ linked, want string }{
		{"", Release},
		{"dev", Release},
		{"v1.2.3", "1.2.3"},
		{"2.0.0-rc.1+abc", "2.0.0-rc.1+abc"},
		{"v1.2", Release},
		{"0123abcd", Release}, // git describe --always without a tag
	} {
		if got := Read(tc.linked, "").Version; got != tc.want {
			t.Errorf("Read(%q).Version = %q, want %q", tc.linked, got, tc.want)
		}
	}
	in := Read("", "")
	if in.GoVersion != runtime.Version() || in.Platform != runtime.GOOS+"/"+runtime.GOARCH {
		t.Errorf("toolchain: %+v", in)
	}
}

// A linked commit is used when the toolchain stamped none (this test binary
// is built without VCS stamps), "-modified" marking a tree with changes.
func TestReadLinkedCommit(t *testing.T) {
	if in := Read("", "0123456789abcdef-modified"); in.Commit != "0123456789abcdef" || !in.Modified {
		t.Errorf("linked modified commit: %+v", in)
	}
	if in := Read("", "0123456789abcdef"); in.Commit != "0123456789abcdef" || in.Modified {
		t.Errorf("linked commit: %+v", in)
	}
}

func TestString(t *testing.T) {
	in := Info{Version: "1.2.3", Commit: "0123456789abcdef0123", Modified: true, GoVersion: "go1.26.8", Platform: "linux/amd64"}
	want := "hostmcp 1.2.3 (commit 0123456789ab, modified) go1.26.8 linux/amd64"
	if got := in.String(); got != want {
		t.Errorf("String() = %q, want %q", got, want)
	}
	if got := in.Short(); got != "1.2.3+0123456789ab" || !IsSemver(got) {
		t.Errorf("Short() = %q", got)
	}
	in.Commit = "unknown"
	if got := in.Short(); got != "1.2.3" {
		t.Errorf("Short() without a commit = %q", got)
	}
	if !regexp.MustCompile(`^hostmcp \S+ \(commit unknown, modified\) go`).MatchString(in.String()) || strings.Contains(in.String(), "  ") {
		t.Errorf("String() = %q", in.String())
	}
}
