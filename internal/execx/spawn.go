package execx

import (
	"os/exec"
	"runtime"
	"sync"

	"github.com/hostmcp/hostmcp/internal/landlock"
)

// Spawner forks children from one OS thread that never exits. The Runner
// forks its programs through one; the repl toolset forks its sessions
// through another, whose thread it prepares first (see Prepare).
//
// Children get Pdeathsig=SIGKILL so they die with the server, but the kernel
// sends the parent-death signal when the *thread* that forked the child
// exits, not the process (prctl(2), PR_SET_PDEATHSIG; golang/go#27505). Go
// retires a thread whenever a goroutine returns while locked to it, so a
// child forked from an arbitrary goroutine could be killed the moment
// unrelated code (a netns switch, a library) does LockOSThread and returns.
// Locking around Start is not enough: the thread would be released back to
// the scheduler afterwards. Forking from a goroutine that stays locked for
// the life of the Spawner removes the hazard, at the cost of one parked
// thread. The zero Spawner is ready to use; it must not be copied.
type Spawner struct {
	// Prepare, when set, runs once on the spawner's thread before its
	// first fork. What it changes there that is per thread (capabilities)
	// every child forked from it inherits, and nothing else of the server
	// does: Go never clones new threads from a locked one (runtime.newm
	// hands that to its template thread), and no other goroutine runs on it.
	Prepare func()

	once sync.Once
	reqs chan spawnReq
}

type spawnReq struct {
	cmd  *exec.Cmd
	done chan error
}

// Start runs cmd.Start on the spawner's thread.
func (s *Spawner) Start(cmd *exec.Cmd) error {
	s.once.Do(func() {
		s.reqs = make(chan spawnReq)
		go s.loop()
	})
	done := make(chan error, 1)
	s.reqs <- spawnReq{cmd: cmd, done: done}
	return <-done
}

func (s *Spawner) loop() {
	// Never unlocked, and the goroutine never returns: see the type comment.
	runtime.LockOSThread()
	if s.Prepare != nil {
		s.Prepare()
	}
	for req := range s.reqs {
		req.done <- req.cmd.Start()
	}
}

// startConfined forks cmd from a thread of its own, confined by pol first.
// A Landlock domain cannot be lifted, so that thread must never run another
// goroutine: its goroutine keeps it locked and, since the parent-death
// signal follows the forking thread (see spawner), stays parked on it until
// the child has exited, then returns, and Go ends the thread with it.
func startConfined(cmd *exec.Cmd, pol landlock.Policy, exited <-chan struct{}) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread dies with this goroutine
		if err := landlock.RestrictThread(pol); err != nil {
			started <- err
			return
		}
		err := cmd.Start()
		started <- err
		if err == nil {
			<-exited
		}
	}()
	return <-started
}
