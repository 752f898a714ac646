package stacks

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// ScriptFields is the -F list ParsePerfScript expects: a header line
// "comm pid/tid" (comm may hold spaces), then one indented line per frame,
// "ip sym+off (dso)", then a blank line.
const ScriptFields = "comm,tid,pid,ip,sym,dso"

// ParsePerfScript decodes `perf script -F comm,tid,pid,ip,sym,dso`, for
// perf builds without the JSON converter.
func ParsePerfScript(b []byte) ([]Sample, error) {
	var out []Sample
	var cur *Sample
	flush := func() {
		if cur != nil {
			if len(cur.Stack) == 0 {
				cur.Stack = []Frame{{Func: unknown, Module: unknown}}
			}
			out = append(out, *cur)
			cur = nil
		}
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			if cur == nil {
				return nil, fmt.Errorf("perf script line %d: a frame before any sample header", n)
			}
			cur.Stack = append(cur.Stack, parseScriptFrame(strings.TrimSpace(line)))
			continue
		}
		flush()
		s, err := parseScriptHeader(line)
		if err != nil {
			return nil, fmt.Errorf("perf script line %d: %w", n, err)
		}
		cur = &s
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("reading perf script output: %w", err)
	}
	flush()
	return out, nil
}

// parseScriptHeader reads "comm pid/tid" (perf prints the process id
// first whatever the -F order), where the last field is the ids.
func parseScriptHeader(line string) (Sample, error) {
	line = strings.TrimRight(line, " :")
	i := strings.LastIndexByte(line, ' ')
	if i < 0 {
		return Sample{}, fmt.Errorf("sample header %q has no pid/tid", line)
	}
	pidS, tidS, ok := strings.Cut(line[i+1:], "/")
	if !ok {
		tidS, pidS = "", line[i+1:]
	}
	tid, err1 := strconv.Atoi(tidS)
	pid, err2 := strconv.Atoi(pidS)
	if err2 != nil || (ok && err1 != nil) {
		return Sample{}, fmt.Errorf("sample header %q: bad pid/tid", line)
	}
	if !ok {
		tid = pid
	}
	return Sample{Comm: strings.TrimSpace(line[:i]), PID: pid, TID: tid, Count: 1}, nil
}

// parseScriptFrame reads "49e171 main.hot+0x11 (/tmp/burn)".
func parseScriptFrame(s string) Frame {
	f := Frame{Func: unknown, Module: unknown}
	if i := strings.LastIndex(s, " ("); i >= 0 && strings.HasSuffix(s, ")") {
		f.Module = s[i+2 : len(s)-1]
		s = s[:i]
	}
	_, sym, ok := strings.Cut(s, " ")
	if !ok {
		return f
	}
	if j := strings.LastIndex(sym, "+0x"); j > 0 {
		sym = sym[:j]
	}
	if sym != "" {
		f.Func = sym
	}
	return f
}
