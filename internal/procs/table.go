package procs

import (
	"context"
	"errors"
	"time"
)

// Table is every process at (about) one instant.
type Table struct {
	At    time.Time
	Procs []Process
	// Unreadable counts processes that exist but could not be read (hidepid,
	// permissions); they are left out rather than shown half-empty.
	Unreadable int
}

// Filter decides, from the fields every read has (ids, names), whether a
// process's command line is wanted: it is the costly part on a host with
// thousands of processes, and other users' command lines may be hidden.
type Filter func(p *Process) bool

// All reads every process. Processes that exit while the table is read are
// skipped, as ps does. Command lines are read for the processes cmdline
// accepts (all when nil); kernel threads have none.
func (r *Reader) All(ctx context.Context, cmdline Filter) (Table, error) {
	pids, err := r.PIDs()
	if err != nil {
		return Table{}, err
	}
	t := Table{At: time.Now(), Procs: make([]Process, 0, len(pids))}
	sc := r.newScratch()
	for i, pid := range pids {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return Table{}, err
			}
		}
		p, err := r.read(pid, false, sc)
		if err != nil {
			if !errors.Is(err, ErrNotFound) {
				t.Unreadable++
			}
			continue
		}
		if !p.KernelThread() && (cmdline == nil || cmdline(&p)) {
			if p.Cmdline, p.CmdlineCut, err = r.cmdline(pid, sc); err != nil {
				continue // exited between the two reads
			}
		}
		t.Procs = append(t.Procs, p)
	}
	return t, nil
}
