package bpfprog

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/link"
	"github.com/cilium/ebpf/ringbuf"

	"github.com/hostmcp/hostmcp/internal/admit"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// attacher attaches one program; trace detaches it at the end.
type attacher func() (link.Link, error)

func tracepoint(group, name string, prog *ebpf.Program) attacher {
	return func() (link.Link, error) {
		l, err := link.Tracepoint(group, name, prog, nil)
		if err != nil {
			return nil, fmt.Errorf("attaching to tracepoint %s:%s: %w", group, name, err)
		}
		return l, nil
	}
}

// Progress is told how long a trace has run: 0 once every program is
// attached, then every progressStep, and at its end.
type Progress func(elapsed time.Duration)

// progressStep is how often a trace tells its Progress how long it has run.
const progressStep = 250 * time.Millisecond

// trace attaches every program, waits d (or until ctx ends), and detaches.
// With a ring, each record is handed to onRecord, in one goroutine, until
// the records submitted before detaching have all been read. A cancelled
// context detaches at once and returns its error.
func trace(ctx context.Context, d time.Duration, progress Progress, ring *ebpf.Map, onRecord func([]byte), attach ...attacher) error {
	if admit.Unslotted(ctx) { // a tool's bug: eBPF attaches only for calls counted in max_program_calls
		return fmt.Errorf("attaching eBPF programs: %w", admit.ErrUndeclared)
	}
	var links []link.Link
	detach := func() {
		// In parallel: each uprobe's release waits out an RCU grace period,
		// which adds up to half a second for DNS's six probes one by one.
		var wg sync.WaitGroup
		for _, l := range links {
			wg.Go(func() { l.Close() })
		}
		wg.Wait()
		links = nil
	}
	defer detach()
	var rd *ringbuf.Reader
	done := make(chan struct{})
	if ring != nil {
		var err error
		if rd, err = ringbuf.NewReader(ring); err != nil {
			return fmt.Errorf("opening the ring buffer: %w", err)
		}
		defer rd.Close()
		go func() {
			defer close(done)
			var rec ringbuf.Record
			for rd.ReadInto(&rec) == nil {
				onRecord(rec.RawSample)
			}
		}()
	} else {
		close(done)
	}
	for _, a := range attach {
		l, err := a()
		if err != nil {
			if rd != nil {
				rd.Close()
				<-done
			}
			return err
		}
		links = append(links, l)
	}
	if progress != nil {
		progress(0) // attached: the trace has begun
	}
	err := tool.Wait(ctx, d, progressStep, progress)
	detach()
	if rd != nil {
		rd.Flush() // the reader returns what is pending, then ErrFlushed
		<-done
	}
	return err
}

// counter reads slot i of an array of counters: the records a full ring
// dropped, the calls a full table had no room for.
func counter(m *ebpf.Map, i uint32) uint64 {
	var n uint64
	m.Lookup(i, &n)
	return n
}

// decode reads a record into the Go mirror of its C struct.
func decode(b []byte, v any) bool {
	return binary.Read(bytes.NewReader(b), binary.LittleEndian, v) == nil
}

// setConsts sets a program's `const volatile` globals before loading.
func setConsts(spec *ebpf.CollectionSpec, vals map[string]any) error {
	for name, v := range vals {
		sv, ok := spec.Variables[name]
		if !ok {
			return fmt.Errorf("the program has no setting %q", name)
		}
		if err := sv.Set(v); err != nil {
			return fmt.Errorf("setting %s: %w", name, err)
		}
	}
	return nil
}

// load sets consts and loads spec into objs.
func load(what string, spec *ebpf.CollectionSpec, err error, consts map[string]any, objs any) error {
	if err == nil {
		err = setConsts(spec, consts)
	}
	if err == nil {
		err = spec.LoadAndAssign(objs, nil)
	}
	if err != nil {
		var ve *ebpf.VerifierError
		if errors.As(err, &ve) {
			return fmt.Errorf("loading the %s program: the verifier refused it: %v", what, ve)
		}
		return fmt.Errorf("loading the %s program: %w", what, err)
	}
	return nil
}

func cstring(b []byte) string {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return string(b)
}

// selfTGID is hostmcp's own process, which the file programs skip.
var selfTGID = uint32(os.Getpid())
