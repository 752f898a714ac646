package app

import (
	"bytes"
	"context"
	"log/slog"
	"os"
	"sync"
	"testing"

	"github.com/hostmcp/hostmcp/internal/config"
)

// syncBuffer is a log destination the sweeper's goroutine and the test
// may use at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A session that ends right after its first call (a one-shot stdio client)
// closes the store while the sweeper, woken by that first use, is about to
// sweep: Close ends the sweeper first, so no sweep meets a closed database
// and warns about it on a server's stderr. The race is at the first use
// only, hence the rounds.
func TestCloseEndsTheSweeperFirst(t *testing.T) {
	for round := range 30 {
		var logs syncBuffer
		cfg := config.Default(t.TempDir(), os.Getuid(), func(string) string { return "" })
		cfg.StateDir = t.TempDir()
		a, err := Open(context.Background(), cfg, "test", slog.New(slog.NewTextHandler(&logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		a.RunSweeper(context.Background())
		if _, err := a.Server.Call(context.Background(), "fs_list", []byte(`{}`)); err != nil {
			t.Fatal(err)
		}
		if _, err := a.Store.PutHandle(context.Background(), "first", nil, []byte("x\n")); err != nil {
			t.Fatal(err)
		}
		if err := a.Close(); err != nil {
			t.Fatal(err)
		}
		if s := logs.String(); bytes.Contains([]byte(s), []byte("level=WARN")) {
			t.Fatalf("round %d: the server warned while closing:\n%s", round, s)
		}
	}
}
