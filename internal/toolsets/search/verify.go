package search

import (
	"context"
	"io"
	"runtime"
	"slices"
	"sync"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/fsroot"
)

// batchFiles is how many candidate files go to a checking goroutine at
// once: handing them over one by one cost a wake-up each, a noticeable
// share of a search with hits in hundreds of files on two busy cores.
const batchFiles = 16

// verifier reads candidate files through the root, on half as many
// goroutines as there are CPUs (at least one), and keeps the candidate
// lines that match there. rg keeps every CPU busy while it runs; a second
// checking goroutine on two CPUs only competed with it, and cost more CPU
// in wake-ups than it saved in time.
type verifier struct {
	ctx   context.Context
	req   *searchReq
	rep   *fsroot.Reported
	work  chan []candidates
	batch []candidates // not yet handed over
	wg    sync.WaitGroup
	mu    sync.Mutex
	hits  []Hit
}

// candidates are the lines rg reported in one file, in increasing order.
type candidates struct {
	path  string
	lines []int
}

func startVerify(ctx context.Context, req *searchReq, rep *fsroot.Reported) *verifier {
	v := &verifier{ctx: ctx, req: req, rep: rep, work: make(chan []candidates, 8)}
	for range max(1, runtime.GOMAXPROCS(0)/2) {
		v.wg.Add(1)
		go v.run()
	}
	return v
}

// check queues a file's candidate lines; a file with none is ignored.
func (v *verifier) check(path string, lines []int) {
	if len(lines) == 0 || v.ctx.Err() != nil {
		return
	}
	slices.Sort(lines) // rg prints them in order; checkFile needs it
	v.batch = append(v.batch, candidates{path, lines})
	if len(v.batch) == batchFiles {
		v.work <- v.batch
		v.batch = nil
	}
}

// wait returns every hit once the queued files are read.
func (v *verifier) wait() []Hit {
	if len(v.batch) > 0 {
		v.work <- v.batch
	}
	close(v.work)
	v.wg.Wait()
	return v.hits
}

func (v *verifier) run() {
	defer v.wg.Done()
	bufs := v.req.bufs.get() // per goroutine, not per file
	defer v.req.bufs.put(bufs)
	var local []Hit
	emit := func(h Hit) bool {
		local = append(local, h)
		return true
	}
	for batch := range v.work {
		local = local[:0]
		for _, c := range batch {
			if v.ctx.Err() != nil {
				break
			}
			fd, size, err := v.rep.OpenFD(c.path)
			if err != nil {
				continue
			}
			v.req.sc.checkFile(c.path, fdReader(fd), size, c.lines, bufs, emit)
			unix.Close(fd)
		}
		v.mu.Lock()
		v.hits = append(v.hits, local...)
		v.mu.Unlock()
	}
}

// fdReader reads a regular file's bare descriptor (fsroot.Reported.OpenFD).
type fdReader int

func (fd fdReader) Read(p []byte) (int, error) {
	for {
		n, err := unix.Read(int(fd), p)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			return 0, err
		case n == 0 && len(p) > 0:
			return 0, io.EOF
		}
		return n, nil
	}
}
