package trace

import (
	"cmp"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/kernelpath"
)

// openRow is one open, as its record tells it.
type openRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started"`
	PID       uint32  `json:"pid"`
	UID       uint32  `json:"uid"`
	Comm      string  `json:"comm"`
	Path      string  `json:"path" jsonschema:"absolute when hostmcp could resolve it against the process's directory"`
	Flags     string  `json:"flags"`
	FD        *int64  `json:"fd,omitempty"`
	Error     string  `json:"error,omitempty"`
	LatencyMS float64 `json:"latency_ms"`
}

// pathRow is what one process did to one path over the whole window,
// counted in the kernel.
type pathRow struct {
	Path    string            `json:"path" jsonschema:"absolute when hostmcp could resolve it against the process's directory"`
	Op      string            `json:"op" jsonschema:"open or unlink"`
	PID     uint32            `json:"pid"`
	Comm    string            `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	Count   uint64            `json:"count" jsonschema:"calls in the window"`
	Failed  uint64            `json:"failed"`
	Errors  map[string]uint64 `json:"errors,omitempty" jsonschema:"failed calls by errno: ENOENT, EACCES, ..."`
	TotalMS float64           `json:"total_ms" jsonschema:"time spent in these calls"`
	MaxMS   float64           `json:"max_ms"`
}

type lifeRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started, when it was unlinked"`
	Path      string  `json:"path"`
	AgeMS     float64 `json:"age_ms" jsonschema:"from the creating open to the unlink"`
	CreatedBy string  `json:"created_by" jsonschema:"pid and command"`
	DeletedBy string  `json:"deleted_by"`
}

// maxTracked bounds what collectOps remembers of a window's records: the
// relative paths it resolved and the files created and not yet deleted.
const maxTracked = 100_000

// collectOps reads the records of opens and unlinks as they arrive: it
// resolves relative paths while the process still runs, keeps a sample
// of opens to list, and pairs files created with their unlinks.
type collectOps struct {
	host     *hostinfo.Host
	start    time.Duration
	allPaths bool
	opens    *sample[openRow]
	resolved map[relPath]string
	created  map[string]bpfprog.FileOp
	lives    *sample[lifeRow]
}

// relPath is a path as a process passed it, relative to dirfd.
type relPath struct {
	pid   uint32
	dirfd int32
	path  string
}

func newCollectOps(host *hostinfo.Host, start time.Duration, allPaths bool) *collectOps {
	return &collectOps{host: host, start: start, allPaths: allPaths, opens: newSample[openRow](maxRecords),
		resolved: map[relPath]string{}, created: map[string]bpfprog.FileOp{}, lives: newSample[lifeRow](maxRecords)}
}

func (c *collectOps) add(op bpfprog.FileOp) {
	op.Path = c.absolute(op.PID, op.DirFD, op.Path, true)
	if op.Unlink {
		c.unlinked(op)
		return
	}
	if op.Ret >= 0 && op.Flags&unix.O_CREAT != 0 {
		if _, ok := c.created[op.Path]; !ok && len(c.created) < maxTracked {
			c.created[op.Path] = op
		}
	}
	if !c.allPaths && op.Flags&unix.O_CREAT == 0 && special(op.Path) {
		return // a relative path into /proc: the kernel leaves out the absolute ones
	}
	row := openRow{Time: relSeconds(op.Time, c.start), PID: op.PID, UID: op.UID, Comm: op.Comm, Path: op.Path,
		Flags: openFlags(op.Flags), Error: errnoName(op.Ret), LatencyMS: ms(op.Latency)}
	if op.Ret >= 0 {
		fd := op.Ret
		row.FD = &fd
	}
	c.opens.add(row)
}

// unlinked pairs a successful unlink with the file's creation.
func (c *collectOps) unlinked(op bpfprog.FileOp) {
	if op.Ret < 0 {
		return
	}
	made, ok := c.created[op.Path]
	if !ok {
		return
	}
	delete(c.created, op.Path)
	c.lives.add(lifeRow{Time: relSeconds(op.Time, c.start), Path: op.Path, AgeMS: ms(op.Time - made.Time),
		CreatedBy: fmt.Sprintf("%d %s", made.PID, made.Comm), DeletedBy: fmt.Sprintf("%d %s", op.PID, op.Comm)})
}

// absolute resolves a relative path against the process's working
// directory (or the directory descriptor it passed), as the records come
// while the process is likely to run, remembering each answer for the
// per-path table read at the end.
func (c *collectOps) absolute(pid uint32, dirfd int32, path string, remember bool) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	k := relPath{pid, dirfd, path}
	if p, ok := c.resolved[k]; ok {
		return p
	}
	dir, err := c.host.Cwd(int(pid))
	if dirfd != unix.AT_FDCWD {
		dir, err = c.host.FDTarget(int(pid), int(dirfd))
	}
	if err != nil || !filepath.IsAbs(dir) {
		return path
	}
	abs := filepath.Join(dir, path)
	if remember && len(c.resolved) < maxTracked {
		c.resolved[k] = abs
	}
	return abs
}

// records lists the sampled opens in time order.
func (c *collectOps) records() []openRow {
	rows := c.opens.items
	slices.SortStableFunc(rows, func(a, b openRow) int { return cmp.Compare(a.Time, b.Time) })
	return rows
}

// shortLived lists the files created and deleted, in the order deleted.
func (c *collectOps) shortLived() []lifeRow {
	rows := c.lives.items
	slices.SortStableFunc(rows, func(a, b lifeRow) int { return cmp.Compare(a.Time, b.Time) })
	return rows
}

// opsTotals are the window's opens and unlinks as the answer counts them.
type opsTotals struct {
	opens, failed, unkeyed uint64
}

// pathTable turns the kernel's counts, one per process, operation, errno
// and path, into a row per process and path, failures first. Opens of
// relative paths that resolve into /proc, /sys or /dev are left out (as
// the kernel leaves out absolute ones) and taken off the totals.
func (c *collectOps) pathTable(res bpfprog.FileOpsResult) ([]pathRow, opsTotals) {
	t := opsTotals{opens: res.Opens.Calls, failed: res.Opens.Failed, unkeyed: res.Opens.Unkeyed + res.Unlinks.Unkeyed}
	type key struct {
		pid    uint32
		unlink bool
		path   string
	}
	rows := map[key]*pathRow{}
	for _, p := range res.Paths {
		path := c.absolute(p.PID, p.DirFD, p.Path, false)
		if !p.Unlink && !c.allPaths && special(path) && !filepath.IsAbs(p.Path) {
			t.opens -= p.Count
			if p.Errno != 0 {
				t.failed -= p.Count
			}
			continue
		}
		k := key{p.PID, p.Unlink, path}
		r := rows[k]
		if r == nil {
			r = &pathRow{Path: path, Op: "open", PID: p.PID, Comm: res.Names.Of(c.host, p.PID)}
			if p.Unlink {
				r.Op = "unlink"
			}
			rows[k] = r
		}
		r.Count += p.Count
		r.TotalMS += ms(p.Total)
		r.MaxMS = max(r.MaxMS, ms(p.Max))
		if p.Errno != 0 {
			r.Failed += p.Count
			if r.Errors == nil {
				r.Errors = map[string]uint64{}
			}
			r.Errors[errnoName(-int64(p.Errno))] += p.Count
		}
	}
	out := make([]pathRow, 0, len(rows))
	for _, r := range rows {
		r.TotalMS = figures.Round3(r.TotalMS)
		out = append(out, *r)
	}
	slices.SortFunc(out, func(a, b pathRow) int {
		return cmp.Or(cmp.Compare(b.Failed, a.Failed), cmp.Compare(b.Count, a.Count), cmp.Compare(a.Path, b.Path), cmp.Compare(a.PID, b.PID))
	})
	return out, t
}

// pathOrder is the order of pathTable's rows.
const pathOrder = "failed calls, then calls"

// special paths are the kernel's own file systems, noise for most questions.
func special(p string) bool {
	tree, ok := kernelpath.PseudoTree(p)
	return ok && p != tree
}

// openFlags names the access mode and the flags that matter.
func openFlags(f uint32) string {
	parts := []string{[]string{"O_RDONLY", "O_WRONLY", "O_RDWR", "O_ACCMODE"}[f&unix.O_ACCMODE]}
	for _, fl := range []struct {
		bit  uint32
		name string
	}{{unix.O_CREAT, "O_CREAT"}, {unix.O_EXCL, "O_EXCL"}, {unix.O_TRUNC, "O_TRUNC"}, {unix.O_APPEND, "O_APPEND"},
		{unix.O_DIRECTORY, "O_DIRECTORY"}, {unix.O_DIRECT, "O_DIRECT"}, {unix.O_SYNC, "O_SYNC"}, {unix.O_CLOEXEC, "O_CLOEXEC"}} {
		if f&fl.bit == fl.bit {
			parts = append(parts, fl.name)
		}
	}
	return strings.Join(parts, "|")
}
