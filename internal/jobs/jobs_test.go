package jobs

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestLifecycle(t *testing.T) {
	m := New(Limits{MaxRunning: 2, MaxLines: 3, Retention: time.Hour})
	defer m.Close()
	done, _ := m.Start(time.Second, func(ctx context.Context, j *Job) error {
		for i := range 5 {
			j.AddLine(fmt.Sprint(i))
		}
		j.SetExitCode(0)
		return nil
	})
	<-done.Done()
	s, err := m.Get(done.ID, 1, 10)
	if err != nil || s.Status != Completed || s.LinesTotal != 3 || s.Dropped != 2 || len(s.Lines) != 2 || s.Lines[0] != "1" || *s.ExitCode != 0 {
		t.Fatalf("%+v %v", s, err)
	}
	slow := func(ctx context.Context, j *Job) error { <-ctx.Done(); return ctx.Err() }
	a, _ := m.Start(50*time.Millisecond, slow)
	b, _ := m.Start(time.Minute, slow)
	if _, err := m.Start(time.Minute, slow); !errors.Is(err, ErrLimit) {
		t.Fatalf("a third running job: %v", err)
	}
	<-a.Done()
	if s, _ := m.Get(a.ID, 0, 1); s.Status != Timeout {
		t.Fatalf("want timeout, got %s", s.Status)
	}
	if err := m.Stop(b.ID); err != nil {
		t.Fatal(err)
	}
	if s, _ := m.Get(b.ID, 0, 1); s.Status != Stopped {
		t.Fatalf("want stopped, got %s", s.Status)
	}
	f, _ := m.Start(time.Minute, func(context.Context, *Job) error { return errors.New("boom") })
	<-f.Done()
	if s, _ := m.Get(f.ID, 0, 1); s.Status != Failed || s.Errors[0] != "boom" {
		t.Fatalf("%+v", s)
	}
	if _, err := m.Get("X_nope", 0, 1); !errors.Is(err, ErrNotFound) {
		t.Fatal(err)
	}
}

func TestRetentionAndClose(t *testing.T) {
	m := New(Limits{MaxRunning: 1, MaxLines: 10, Retention: time.Minute})
	now := time.Now()
	m.now = func() time.Time { return now }
	j, _ := m.Start(time.Minute, func(context.Context, *Job) error { return nil })
	<-j.Done()
	now = now.Add(2 * time.Minute)
	if _, err := m.Get(j.ID, 0, 1); !errors.Is(err, ErrNotFound) {
		t.Fatal("a job outlived its retention")
	}
	r, _ := m.Start(time.Hour, func(ctx context.Context, _ *Job) error { <-ctx.Done(); return ctx.Err() })
	m.Close()
	select {
	case <-r.Done():
	default:
		t.Fatal("Close left a job running")
	}
}
