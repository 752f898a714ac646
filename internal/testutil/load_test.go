package testutil

import (
	"errors"
	"os"
	"syscall"
	"testing"
)

// The lock is the machine's, taken by every live load test of every test
// binary: like them, this test is live, so -short (where the subtest skips)
// does not find the lock held by another package's load test and fail.
func TestExclusiveLoadHoldsTheLockUntilCleanup(t *testing.T) {
	Live(t)
	tryLock := func() error {
		f, err := os.OpenFile(loadLockPath, os.O_RDWR|os.O_CREATE, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		}
		return err
	}
	t.Run("held", func(t *testing.T) {
		ExclusiveLoad(t)
		if err := tryLock(); !errors.Is(err, syscall.EWOULDBLOCK) {
			t.Fatalf("a second holder got %v, want EWOULDBLOCK while the lock is held", err)
		}
	})
	if err := tryLock(); err != nil {
		t.Fatalf("the lock was not released at cleanup: %v", err)
	}
}
