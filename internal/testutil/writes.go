package testutil

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/hostmcp/hostmcp/internal/procs"
)

// Write is a regular file some process closed after writing to it.
type Write struct {
	PID int
	// Ancestors are PID's parent, its parent and so on, read as soon as the
	// event arrived; empty when PID had already gone by then.
	Ancestors []int
	// Path is the file's name when the event was read, with " (deleted)"
	// after it when it had been unlinked by then.
	Path string
}

// Writes records, machine-wide, every regular file closed after writing
// (fanotify(7), FAN_CLOSE_WRITE on every local file system), with the pid
// of the process that wrote it. A test that must show a program writes
// nowhere but where it may picks its own processes out by pid, so the
// writes of anything else running on the machine do not disturb it; and,
// unlike a look at a few paths before and after, it misses no place.
type Writes struct {
	f    *os.File
	done chan struct{}

	mu         sync.Mutex
	seen       []Write
	overflowed bool
}

// pseudoFS are file systems that hold no files a program writes data to.
var pseudoFS = map[string]bool{
	"proc": true, "sysfs": true, "cgroup": true, "cgroup2": true, "devpts": true, "mqueue": true,
	"debugfs": true, "tracefs": true, "securityfs": true, "pstore": true, "bpf": true, "configfs": true,
	"fusectl": true, "hugetlbfs": true, "binfmt_misc": true, "autofs": true, "nsfs": true,
	"efivarfs": true, "rpc_pipefs": true,
}

// RecordWrites starts recording; it needs CAP_SYS_ADMIN. Recording stops at
// Stop or at the end of the test.
func RecordWrites(t testing.TB) *Writes {
	t.Helper()
	RequireRoot(t)
	fd, err := unix.FanotifyInit(unix.FAN_CLASS_NOTIF|unix.FAN_CLOEXEC|unix.FAN_NONBLOCK|unix.FAN_UNLIMITED_QUEUE,
		unix.O_RDONLY|unix.O_LARGEFILE|unix.O_CLOEXEC|unix.O_NOATIME)
	if err != nil {
		Missing(t, "fanotify: %v", err)
	}
	w := &Writes{f: os.NewFile(uintptr(fd), "fanotify"), done: make(chan struct{})}
	marked, err := markLocalFileSystems(fd)
	if err != nil || !marked["/"] {
		w.f.Close()
		t.Fatalf("watching the file systems (marked %v): %v", marked, err)
	}
	go w.read()
	t.Cleanup(func() { w.Stop() })
	return w
}

// markLocalFileSystems puts a file system mark on every mounted file system
// that is not a pseudo one, and returns the mount points marked. A mount the
// kernel refuses to mark (a file system without the support) is left out.
func markLocalFileSystems(fd int) (map[string]bool, error) {
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	marked := map[string]bool{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		// "36 35 98:0 /mnt1 /mnt/parent rw,noatime master:1 - ext3 /dev/root rw"
		pre, post, ok := strings.Cut(sc.Text(), " - ")
		fields, fstype := strings.Fields(pre), strings.Fields(post)
		if !ok || len(fields) < 5 || len(fstype) == 0 || pseudoFS[fstype[0]] {
			continue
		}
		mnt := unescapeMount(fields[4])
		if unix.FanotifyMark(fd, unix.FAN_MARK_ADD|unix.FAN_MARK_FILESYSTEM, unix.FAN_CLOSE_WRITE, unix.AT_FDCWD, mnt) == nil {
			marked[mnt] = true
		}
	}
	return marked, sc.Err()
}

// unescapeMount undoes the octal escapes of spaces and the like in a
// mountinfo path (proc(5)).
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// read collects events until the descriptor is closed.
func (w *Writes) read() {
	defer close(w.done)
	procfs, _ := procs.New("/proc", 0)
	buf := make([]byte, 64<<10)
	for {
		n, err := w.f.Read(buf)
		if err != nil {
			return // closed by Stop
		}
		for b := buf[:n]; len(b) >= unix.FAN_EVENT_METADATA_LEN; {
			ev := (*unix.FanotifyEventMetadata)(unsafe.Pointer(&b[0]))
			if ev.Event_len < unix.FAN_EVENT_METADATA_LEN || int(ev.Event_len) > len(b) {
				break
			}
			b = b[ev.Event_len:]
			if ev.Mask&unix.FAN_Q_OVERFLOW != 0 {
				w.mu.Lock()
				w.overflowed = true
				w.mu.Unlock()
			}
			if ev.Fd == unix.FAN_NOFD {
				continue
			}
			w.note(procfs, int(ev.Fd), int(ev.Pid))
		}
	}
}

// note records the event's file if it is a regular one, and closes the
// descriptor fanotify opened on it.
func (w *Writes) note(procfs *procs.Reader, fd, pid int) {
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return
	}
	path, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(fd))
	if err != nil {
		return
	}
	wr := Write{PID: pid, Path: path}
	if procfs != nil {
		wr.Ancestors, _ = procfs.Ancestors(pid) // as far as it could go
	}
	w.mu.Lock()
	w.seen = append(w.seen, wr)
	w.mu.Unlock()
}

// Stop ends the recording and returns what it saw, and whether the kernel
// dropped events (then the list is incomplete).
func (w *Writes) Stop() ([]Write, bool) {
	_ = w.f.Close() // a second Stop finds it closed already
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.seen, w.overflowed
}
