// Command packaging builds hostmcp's .deb and OCI image from the static
// binary `make build` leaves in bin/hostmcp, without dpkg-buildpackage or a
// container daemon: `go run ./packaging deb` and `go run ./packaging
// image` (make deb, make image). It lives apart from cmd/hostmcp so that
// the server never links nfpm or go-containerregistry.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"time"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go run ./packaging deb|image [-binary bin/hostmcp] [-out dist]")
		os.Exit(2)
	}
	what := os.Args[1]
	fs := flag.NewFlagSet(what, flag.ExitOnError)
	binary := fs.String("binary", "bin/hostmcp", "the static hostmcp binary to package")
	out := fs.String("out", "dist", "directory the package or image is written to")
	version := fs.String("version", buildinfo.Release, "version of the package or image")
	arch := fs.String("arch", runtime.GOARCH, "Go architecture of the binary")
	_ = fs.Parse(os.Args[2:])
	mtime, err := sourceDateEpoch(os.Getenv("SOURCE_DATE_EPOCH"))
	if err != nil {
		fmt.Fprintln(os.Stderr, "packaging:", err)
		os.Exit(2)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "packaging:", err)
		os.Exit(1)
	}
	var path string
	switch what {
	case "deb":
		path, err = buildDeb(&debOptions{Repo: ".", Binary: *binary, Out: *out, Version: *version, Arch: *arch, MTime: mtime})
	case "image":
		path, err = buildImage(&imageOptions{Binary: *binary, Out: *out, Version: *version, Arch: *arch, Created: mtime})
	default:
		err = fmt.Errorf("unknown target %q; want deb or image", what)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "packaging:", err)
		os.Exit(1)
	}
	fmt.Println(path)
}

// sourceDateEpoch is the time every file in a package or image carries:
// SOURCE_DATE_EPOCH (reproducible-builds.org), which make sets to the
// commit's time, else the Unix epoch, so that two builds of the same
// binary are the same bytes either way.
func sourceDateEpoch(v string) (time.Time, error) {
	if v == "" {
		return time.Unix(0, 0).UTC(), nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 0 {
		return time.Time{}, fmt.Errorf("SOURCE_DATE_EPOCH=%q: want seconds since 1970", v)
	}
	return time.Unix(n, 0).UTC(), nil
}
