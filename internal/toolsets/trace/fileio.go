package trace

import (
	"cmp"
	"slices"
	"time"

	"github.com/hostmcp/hostmcp/internal/bpfprog"
	"github.com/hostmcp/hostmcp/internal/figures"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// slowRow is one read or write at least min_latency_ms long.
type slowRow struct {
	Time      float64 `json:"time_s" jsonschema:"seconds since the trace started"`
	PID       uint32  `json:"pid"`
	Comm      string  `json:"comm"`
	Op        string  `json:"op" jsonschema:"read or write"`
	File      string  `json:"file" jsonschema:"the file's name (last path component)"`
	Path      string  `json:"path,omitempty" jsonschema:"the file's full path, from /proc/PID/fd when the call was seen; absent when the descriptor was closed by then"`
	FileType  string  `json:"file_type"`
	Bytes     int64   `json:"bytes"`
	LatencyMS float64 `json:"latency_ms"`
	Error     string  `json:"error,omitempty"`
}

// collectSlow keeps a sample of the slow calls' records.
type collectSlow struct {
	start time.Duration
	rows  *sample[slowRow]
}

func newCollectSlow(start time.Duration) *collectSlow {
	return &collectSlow{start: start, rows: newSample[slowRow](maxRecords)}
}

func (c *collectSlow) add(s bpfprog.SlowIO) {
	op := "read"
	if s.Write {
		op = "write"
	}
	row := slowRow{Time: relSeconds(s.Time, c.start), PID: s.PID, Comm: s.Comm, Op: op, File: s.File, Path: s.Path,
		FileType: fsroot.TypeOfStat(s.Mode).Noun(), LatencyMS: ms(s.Latency), Error: errnoName(s.Ret)}
	if s.Ret >= 0 {
		row.Bytes = s.Ret
	}
	c.rows.add(row)
}

// records lists the sampled slow calls in time order.
func (c *collectSlow) records() []slowRow {
	rows := c.rows.items
	slices.SortStableFunc(rows, func(a, b slowRow) int { return cmp.Compare(a.Time, b.Time) })
	if rows == nil {
		rows = []slowRow{}
	}
	return rows
}

// ioCounts are reads and writes counted in the kernel over the whole window.
type ioCounts struct {
	Reads   uint64            `json:"reads"`
	Writes  uint64            `json:"writes"`
	Bytes   uint64            `json:"bytes"`
	Failed  uint64            `json:"failed"`
	Errors  map[string]uint64 `json:"errors,omitempty" jsonschema:"failed calls by errno: EIO, EAGAIN, ..."`
	Slow    uint64            `json:"slow" jsonschema:"calls at least min_latency_ms long"`
	TotalMS float64           `json:"total_ms" jsonschema:"time spent in these calls"`
	MaxMS   float64           `json:"max_ms"`
}

func (c *ioCounts) add(f bpfprog.FileCount) {
	if f.Write {
		c.Writes += f.Calls
	} else {
		c.Reads += f.Calls
	}
	c.Bytes += f.Bytes
	c.Slow += f.Slow
	c.TotalMS += ms(f.Total)
	c.MaxMS = max(c.MaxMS, ms(f.Max))
	if f.Errno != 0 {
		c.Failed += f.Calls
		if c.Errors == nil {
			c.Errors = map[string]uint64{}
		}
		c.Errors[errnoName(-int64(f.Errno))] += f.Calls
	}
}

// fileIORow is one file's reads and writes, by every process.
type fileIORow struct {
	File     string `json:"file" jsonschema:"the file's name (last path component)"`
	Path     string `json:"path,omitempty" jsonschema:"its full path, where a slow call's record or a descriptor still open names it"`
	FileType string `json:"file_type"`
	ioCounts
	pid, fd uint32 // a process and descriptor that may still name the file
}

// procIORow is one process's reads and writes, of every file.
type procIORow struct {
	PID  uint32 `json:"pid"`
	Comm string `json:"comm" jsonschema:"what the process runs: its command after its last exec"`
	ioCounts
}

// named fills in the full paths of the files listed that no record named:
// from the descriptors the processes still hold, looked up only for the
// rows an answer lists.
func named(host *hostinfo.Host, rows []fileIORow) {
	for i := range rows {
		if r := &rows[i]; r.Path == "" {
			r.Path = bpfprog.FDPath(host, r.pid, r.fd, r.File)
		}
	}
}

// ioOrder is the order of the file and process tables.
const ioOrder = "time spent in calls"

// ioTables sums the kernel's counts (one per process, operation, errno and
// file) by file and by process, most time first.
func ioTables(host *hostinfo.Host, res bpfprog.FileIOResult) ([]fileIORow, []procIORow) {
	type fileID struct {
		dev uint32
		ino uint64
	}
	files := map[fileID]*fileIORow{}
	procs := map[uint32]*procIORow{}
	for _, f := range res.Files {
		fr := files[fileID{f.Dev, f.Ino}]
		if fr == nil {
			fr = &fileIORow{File: f.Name, FileType: fsroot.TypeOfStat(f.Mode).Noun()}
			files[fileID{f.Dev, f.Ino}] = fr
		}
		if fr.Path == "" {
			fr.Path, fr.pid, fr.fd = f.Path, f.PID, f.FD
		}
		fr.add(f)
		pr := procs[f.PID]
		if pr == nil {
			pr = &procIORow{PID: f.PID, Comm: res.Names.Of(host, f.PID)}
			procs[f.PID] = pr
		}
		pr.add(f)
	}
	fileRows := make([]fileIORow, 0, len(files))
	for _, r := range files {
		r.TotalMS = figures.Round3(r.TotalMS)
		fileRows = append(fileRows, *r)
	}
	slices.SortFunc(fileRows, func(a, b fileIORow) int {
		return cmp.Or(cmp.Compare(b.TotalMS, a.TotalMS), cmp.Compare(a.Path, b.Path), cmp.Compare(a.File, b.File))
	})
	procRows := make([]procIORow, 0, len(procs))
	for _, r := range procs {
		r.TotalMS = figures.Round3(r.TotalMS)
		procRows = append(procRows, *r)
	}
	slices.SortFunc(procRows, func(a, b procIORow) int { return cmp.Or(cmp.Compare(b.TotalMS, a.TotalMS), cmp.Compare(a.PID, b.PID)) })
	return fileRows, procRows
}
