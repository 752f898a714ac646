package fsroot

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkReportedGOROOT checks search_files' case, the names ending in
// _test.go below GOROOT/src (about 1,750 in 400 directories), and reports
// the CPU it takes as well as the time.
func BenchmarkReportedGOROOT(b *testing.B) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		b.Skipf("go env GOROOT: %v", err)
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	var rels []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, "_test.go") {
			rel, _ := filepath.Rel(src, p)
			rels = append(rels, rel)
		}
		return err
	})
	if err != nil {
		b.Skip(err)
	}
	s, err := Open([]Spec{{Path: src}})
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	l, err := s.Resolve(".")
	if err != nil {
		b.Fatal(err)
	}
	f, err := l.Fence(false)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	b.Run("Regular", func(b *testing.B) {
		defer reportCPU(b)()
		for b.Loop() {
			r := f.Reported()
			for _, rel := range rels {
				if !r.Regular(rel) {
					b.Fatal(rel)
				}
			}
			r.Close()
		}
	})
}

// reportCPU reports the CPU the process used per iteration, user and
// system: on a shared machine wall time mostly measures the neighbours.
func reportCPU(b *testing.B) func() {
	t0 := cpuTime()
	return func() { b.ReportMetric(float64((cpuTime()-t0).Microseconds())/float64(b.N), "cpu-µs/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
