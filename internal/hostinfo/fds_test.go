package hostinfo

import "testing"

// perf_fd_trace's readers, on lines taken from this host's /proc.
func TestClassifyFD(t *testing.T) {
	t.Parallel()
	for target, want := range map[string]string{
		"socket:[643877]":      "socket",
		"pipe:[643866]":        "pipe",
		"anon_inode:[eventfd]": "anon",
		"anon_inode:bpf-map":   "anon",
		"/dev/null":            "other",
		"/dev/shm/sem.x":       "file",
		"/tmp/log (deleted)":   "file",
		"/proc/21068/fd":       "file",
		"net:[4026531840]":     "other",
	} {
		if got := classifyFD(target); got != want {
			t.Errorf("%q: %s, want %s", target, got, want)
		}
	}
}

func TestParseOpenFilesLimit(t *testing.T) {
	t.Parallel()
	limits := "Limit                     Soft Limit           Hard Limit           Units     \n" +
		"Max cpu time              unlimited            unlimited            seconds   \n" +
		"Max open files            20000                20000                files     \n"
	if soft, hard, err := parseOpenFilesLimit([]byte(limits)); err != nil || soft != 20000 || hard != 20000 {
		t.Errorf("%d %d %v", soft, hard, err)
	}
	if soft, hard, err := parseOpenFilesLimit([]byte("Max open files unlimited unlimited files\n")); err != nil || soft != 0 || hard != 0 {
		t.Errorf("unlimited: %d %d %v", soft, hard, err)
	}
	for _, bad := range []string{"Max open files 1024\n", "Max open files x 1024 files\n", "nothing\n"} {
		if _, _, err := parseOpenFilesLimit([]byte(bad)); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

func TestParseProcIO(t *testing.T) {
	t.Parallel()
	p, err := parseProcIO([]byte("rchar: 6976\nwchar: 12\nsyscr: 10\nsyscw: 1\nread_bytes: 4096\nwrite_bytes: 8192\ncancelled_write_bytes: 0\n"))
	want := ProcIO{RChar: 6976, WChar: 12, SyscR: 10, SyscW: 1, ReadBytes: 4096, WriteBytes: 8192}
	if err != nil || p != want {
		t.Errorf("%+v %v", p, err)
	}
	if _, err := parseProcIO([]byte("rchar: lots\n")); err == nil {
		t.Error("a word parsed as a count")
	}
}
