package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestArtifactRoundTrip(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	data := []byte("<svg>main.hot</svg>")
	a, err := s.PutArtifact(ctx, ArtifactInput{RunID: "R1", Tool: "perf_cpu_profile", Type: "flamegraph", MIME: "image/svg+xml", Ext: "svg", Data: data, TTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	if !ValidArtifactID(a.ID) || a.Filename != a.ID+".svg" || a.Size != int64(len(data)) {
		t.Fatalf("bad artifact %+v", a)
	}
	dir, err := s.ArtifactDir(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(filepath.Join(dir, a.Filename))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("artifact file mode %v, want 0600", fi.Mode().Perm())
	}
	got, b, err := s.ReadArtifact(ctx, a.ID, 5, 7)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != "main.ho" || got.MIME != "image/svg+xml" || got.RunID != "R1" {
		t.Errorf("ReadArtifact = %q %+v", b, got)
	}
	if _, b, _ := s.ReadArtifact(ctx, a.ID, a.Size, 10); len(b) != 0 {
		t.Errorf("read at end gave %q", b)
	}
	if _, _, err := s.ReadArtifact(ctx, a.ID, a.Size+1, 10); !errors.Is(err, ErrOffsetOutOfRange) {
		t.Errorf("read past end: %v", err)
	}
	other, err := s.PutArtifact(ctx, ArtifactInput{RunID: "R2", Tool: "t", Type: "collapsed", MIME: "text/plain", Ext: "txt", Data: []byte("a;b 1\n")})
	if err != nil {
		t.Fatal(err)
	}
	all, err := s.Artifacts(ctx, "", 0)
	if err != nil || len(all) != 2 {
		t.Fatalf("Artifacts = %v, %v", all, err)
	}
	run, err := s.Artifacts(ctx, "R1", 0)
	if err != nil || len(run) != 1 || run[0].ID != a.ID {
		t.Fatalf("Artifacts(R1) = %v, %v", run, err)
	}

	// Past a's TTL: reads say expired, the sweep removes row and file, and
	// the default-TTL artifact stays.
	clk.Advance(2 * time.Hour)
	if _, err := s.Artifact(ctx, a.ID); !errors.Is(err, ErrArtifactExpired) {
		t.Errorf("after TTL: %v", err)
	}
	n, err := s.SweepArtifacts(ctx)
	if err != nil || n != 1 {
		t.Fatalf("SweepArtifacts = %d, %v", n, err)
	}
	if _, err := os.Stat(filepath.Join(dir, a.Filename)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("swept artifact's file still there: %v", err)
	}
	if _, err := s.Artifact(ctx, a.ID); !errors.Is(err, ErrArtifactNotFound) {
		t.Errorf("after sweep: %v", err)
	}
	if _, err := s.Artifact(ctx, other.ID); err != nil {
		t.Errorf("unexpired artifact: %v", err)
	}
}

func TestArtifactRejects(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	for _, id := range []string{"", "../../etc/passwd", "A_20261122T024500Z_9f3a", "H_fsread_20261122T024500Z_9f3a1c2b"} {
		if _, err := s.Artifact(ctx, id); !errors.Is(err, ErrArtifactNotFound) {
			t.Errorf("Artifact(%q) = %v, want not found", id, err)
		}
	}
	for _, ext := range []string{"", "../x", "SVG", "a/b"} {
		if _, err := s.PutArtifact(ctx, ArtifactInput{Ext: ext, Data: []byte("x")}); err == nil {
			t.Errorf("PutArtifact with ext %q succeeded", ext)
		}
	}
}

func TestSweepArtifactsRemovesOrphans(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	dir, err := s.ArtifactDir(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	orphan := filepath.Join(dir, "A_20261122T024500Z_0123456789abcdef.svg")
	foreign := filepath.Join(dir, "notes.txt")
	for _, p := range []string{orphan, foreign} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := clk.Now().Add(-2 * time.Hour)
		os.Chtimes(p, old, old)
	}
	if _, err := s.SweepArtifacts(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(orphan); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("orphan artifact file kept: %v", err)
	}
	if _, err := os.Stat(foreign); err != nil {
		t.Errorf("a file that is not an artifact was removed: %v", err)
	}
}
