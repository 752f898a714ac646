package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestBaselineSaveLoadReplace(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	if _, err := s.SaveBaseline(ctx, Baseline{Name: "default", Tool: "perf_snapshot", Hostname: "h1", BootID: "b1", Data: []byte(`{"a":1}`)}); err != nil {
		t.Fatal(err)
	}
	clk.Advance(time.Hour)
	if _, err := s.SaveBaseline(ctx, Baseline{Name: "default", Tool: "perf_use_check", Hostname: "h1", BootID: "b2", Data: []byte(`{"a":2}`)}); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadBaseline(ctx, "default")
	if err != nil {
		t.Fatal(err)
	}
	want := Baseline{Name: "default", Saved: clk.Now(), Tool: "perf_use_check", Hostname: "h1", BootID: "b2", Data: []byte(`{"a":2}`)}
	if !got.Saved.Equal(want.Saved) || got.Tool != want.Tool || got.BootID != want.BootID || string(got.Data) != string(want.Data) {
		t.Errorf("LoadBaseline = %+v, want %+v", got, want)
	}
	list, err := s.Baselines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != 1 || list[0].Name != "default" || list[0].Data != nil {
		t.Errorf("Baselines = %+v, want one entry without data", list)
	}
}

func TestBaselineNotFoundAndBadNames(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, nil)
	if _, err := s.LoadBaseline(ctx, "nope"); !errors.Is(err, ErrBaselineNotFound) {
		t.Errorf("LoadBaseline(nope) = %v, want ErrBaselineNotFound", err)
	}
	for _, name := range []string{"", "-x", "a b", "a/b", "../x", string(make([]byte, 65)), "ü"} {
		if ValidBaselineName(name) {
			t.Errorf("ValidBaselineName(%q) = true", name)
		}
		if _, err := s.SaveBaseline(ctx, Baseline{Name: name, Data: []byte("{}")}); err == nil {
			t.Errorf("SaveBaseline(%q) succeeded", name)
		}
	}
	for _, name := range []string{"default", "before-deploy", "v1.2_x", "A"} {
		if !ValidBaselineName(name) {
			t.Errorf("ValidBaselineName(%q) = false", name)
		}
	}
	if _, err := s.SaveBaseline(ctx, Baseline{Name: "empty"}); err == nil {
		t.Error("SaveBaseline without data succeeded")
	}
}

// Past MaxBaselines, each save drops the oldest, and says which.
func TestBaselineCapDropsOldest(t *testing.T) {
	ctx := context.Background()
	clk := newClock()
	s := openTest(t, &Options{Now: clk.Now})
	for i := range MaxBaselines {
		clk.Advance(time.Second)
		if dropped, err := s.SaveBaseline(ctx, Baseline{Name: fmt.Sprintf("b%02d", i), Data: []byte("{}")}); err != nil || len(dropped) != 0 {
			t.Fatalf("save %d: dropped %v, %v", i, dropped, err)
		}
	}
	clk.Advance(time.Second)
	dropped, err := s.SaveBaseline(ctx, Baseline{Name: "newest", Data: []byte("{}")})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(dropped, []string{"b00"}) {
		t.Errorf("dropped %v, want [b00]", dropped)
	}
	list, err := s.Baselines(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(list) != MaxBaselines || list[0].Name != "newest" || list[len(list)-1].Name != "b01" {
		t.Errorf("kept %d, newest %s, oldest %s; want %d, newest, b01", len(list), list[0].Name, list[len(list)-1].Name, MaxBaselines)
	}
}

// A database of schema version 2 (before baselines) opens, migrates and
// keeps what it held.
func TestBaselineMigrationFromVersion2(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "hostmcp.db")
	s := openTest(t, &Options{Path: path})
	for _, q := range []string{`DROP TABLE baselines`, `ALTER TABLE calls DROP COLUMN confirmation`, `PRAGMA user_version = 2`} {
		if _, err := s.db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	// A record as a version 2 hostmcp wrote it, without a confirmation.
	if _, err := s.db.Exec(`INSERT INTO calls(time, tool, session, args_summary, outcome, error_code, duration, bytes_out) VALUES (1, 'fs_read', 's', '', 'ok', '', 0, 0)`); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = openTest(t, &Options{Path: path})
	var version int
	if err := s.db.QueryRow(`PRAGMA user_version`).Scan(&version); err != nil || version != len(migrations) {
		t.Fatalf("user_version = %d (%v), want %d", version, err, len(migrations))
	}
	if _, err := s.SaveBaseline(ctx, Baseline{Name: "default", Data: []byte("{}")}); err != nil {
		t.Fatalf("saving after the migration: %v", err)
	}
	calls, err := s.RecentCalls(ctx, CallQuery{})
	if err != nil || len(calls) != 1 {
		t.Errorf("calls after the migration: %v, %v", calls, err)
	}
}
