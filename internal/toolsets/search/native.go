package search

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// contentNative walks the tree itself (walk.go) and scans files in
// parallel: files up to 32 MiB whole, larger ones line by line. A file with
// a NUL byte in its first 64 KiB is binary and skipped, as rg does.
func contentNative(ctx context.Context, req *searchReq, call *tool.Call) ([]Hit, bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	w := newWalker(req.loc, req.fence, req.filter())
	var (
		mu    sync.Mutex
		hits  []Hit
		count atomic.Int64
		full  atomic.Bool
	)
	emit := func(h Hit) bool {
		if count.Add(1) > hitCap {
			full.Store(true)
			cancel()
			return false
		}
		mu.Lock()
		hits = append(hits, h)
		mu.Unlock()
		return true
	}
	work := make(chan string, 64)
	var wg sync.WaitGroup
	for range max(2, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 0, 1<<20)
			for rel := range work {
				if ctx.Err() != nil {
					continue
				}
				buf = scanOne(req, rel, buf, emit)
			}
		}()
	}
	err := w.walk(ctx, func(rel string) bool {
		select {
		case work <- rel:
			return true
		case <-ctx.Done():
			return false
		}
	})
	close(work)
	wg.Wait()
	if full.Load() {
		return hits, false, nil
	}
	if err != nil {
		return nil, false, err
	}
	w.warn(call)
	return hits, true, nil
}

// scanOne searches one file, reusing buf for its content.
func scanOne(req *searchReq, rel string, buf []byte, emit func(Hit) bool) []byte {
	f, st, err := req.open(rel)
	if err != nil {
		return buf
	}
	defer f.Close()
	if st.Size() > wholeFileMax {
		head := make([]byte, binaryProbe)
		k, _ := io.ReadFull(f, head)
		if bytes.IndexByte(head[:k], 0) >= 0 {
			return buf
		}
		_, _ = req.sc.stream(rel, bufio.NewReaderSize(io.MultiReader(bytes.NewReader(head[:k]), f), 64<<10), nil, emit)
		return buf
	}
	need := int(st.Size()) + 1 // one more byte shows a file that grew
	if cap(buf) < need {
		buf = make([]byte, need)
	}
	k, _ := io.ReadFull(f, buf[:need])
	buf = buf[:k]
	if bytes.IndexByte(buf[:min(len(buf), binaryProbe)], 0) >= 0 {
		return buf
	}
	req.sc.wholeFile(rel, buf, emit)
	return buf
}

func (r *searchReq) filter() filter {
	f := filter{hidden: r.opt.hidden, noIgnore: r.opt.noIgnore}
	if g, _ := compileGlob(r.opt.glob); g != nil {
		f.override = g
	}
	return f
}
