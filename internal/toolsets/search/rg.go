package search

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strconv"
	"strings"

	"github.com/hostmcp/hostmcp/internal/execx"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/kernelpath"
	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// rgBase is the argv every rg run starts with: no config file, and only the
// .gitignore files of the searched tree (not the global ones, not
// .git/info/exclude, not .ignore/.rgignore, not those of parent
// directories, which may lie outside the roots), also outside a git
// repository. The native walker implements exactly this.
func rgBase(o *options) []string {
	a := []string{"--no-config", "--no-messages", "--color=never",
		"--no-ignore-global", "--no-ignore-exclude", "--no-ignore-parent", "--no-ignore-dot", "--no-require-git",
		"--regex-size-limit=" + rgSizeLimit, "--dfa-size-limit=" + rgSizeLimit}
	if o.hidden {
		a = append(a, "--hidden")
	}
	if o.noIgnore {
		a = append(a, "--no-ignore-vcs")
	}
	if o.glob != "" {
		a = append(a, "--glob="+o.glob) // a flag's value: never parsed as an option
	}
	if !o.cross && !o.flat {
		// By device number only: rg still enters a bind mount of the same
		// file system, whose files the fence then drops (fsroot.Reported).
		a = append(a, "--one-file-system")
	}
	return a
}

// rgSizeLimit bounds the regex ripgrep compiles and the lazy DFA each of its
// threads builds: over it ripgrep refuses the pattern (or, for the DFA,
// falls back to a slower engine) rather than grow. ripgrep's own limits are
// 100 MB and 1000 MB per thread, whatever its --help says: \w{500} kept it
// busy 13 s at 147 MB before it answered. At 10M it refuses large counted
// Unicode classes (\w{100}) at once, and the native engine, whose program
// is bounded by MaxRegexpInsts, takes them.
const rgSizeLimit = "10M"

// runRg runs rg with its working directory set to the search root through
// /proc/self/fd: the child changes into the very directory opened through
// the *os.Root, so a symbolic link swapped in for the root's path meanwhile
// changes nothing, and rg only ever sees "." and paths below it. Where the
// kernel has Landlock, rg is also confined to reading below that directory,
// so not even a link swapped in during its walk lets it read outside; what
// is shown is re-read through the root either way. Each stdout line goes to
// onLine, or each NUL-ended record when nulEnded (for --files --null);
// returning false stops rg.
func runRg(ctx context.Context, ex *execx.Runner, loc fsroot.Loc, args []string, nulEnded bool, onLine func([]byte) bool) (execx.Result, error) {
	d, err := loc.OpenDir()
	if err != nil {
		return execx.Result{}, err
	}
	defer d.Close()
	args = append(args, "--", ".")
	// The child changes directory between fork and exec, while it still
	// holds our descriptors: /proc/self is then the child itself, which a
	// confined child may look into, unlike its parent.
	dir := kernelpath.SelfFD(d.Fd())
	var confine *landlock.Policy
	if landlock.ABI() > 0 {
		confine = &landlock.Policy{Read: []*os.File{d}}
	}
	var p *execx.Process
	stopped := false
	started := make(chan struct{})
	p, err = ex.Start(ctx, execx.Cmd{
		Name:      "rg",
		Args:      args,
		Dir:       dir,
		MaxOutput: 64 << 10,
		Confine:   confine,
		StdoutNUL: nulEnded,
		OnStdoutLine: func(line []byte) {
			if stopped {
				return
			}
			if !onLine(line) {
				stopped = true
				<-started
				go p.Stop(0)
			}
		},
	})
	if err != nil {
		if errors.Is(err, execx.ErrNotInstalled) {
			return execx.Result{}, tool.Wrap(tool.ToolNotFound, err, "ripgrep (rg) is not installed")
		}
		return execx.Result{}, tool.Wrap(tool.ExecutionFailed, err, "starting rg: %v", err)
	}
	close(started)
	res, err := p.Wait()
	if err != nil {
		return res, err
	}
	if res.ExitCode == 2 && !stopped {
		msg := string(res.Stderr)
		switch {
		case strings.Contains(msg, "exceeds size limit"):
			return res, tool.Errorf(tool.InvalidArgument, "ripgrep refused the pattern: %s", rgMessage(msg)).
				WithSuggestion("Simplify the pattern: fewer counted repetitions, ASCII classes such as [A-Za-z0-9_] for \\w; or use engine native.")
		case strings.Contains(msg, "regex parse error"), strings.Contains(msg, "error parsing glob"):
			return res, tool.Errorf(tool.InvalidArgument, "ripgrep refused the pattern: %s", rgMessage(msg))
		}
	}
	return res, nil
}

// rgMessage is ripgrep's error in a few words: its first lines, each
// clipped, without the line of carets that points into the pattern.
func rgMessage(stderr string) string {
	var parts []string
	for _, l := range strings.Split(stderr, "\n") {
		if l = strings.TrimSpace(l); l != "" && strings.Trim(l, "^~ ") != "" {
			parts = append(parts, tool.Clip(l))
		}
		if len(parts) == 4 {
			break
		}
	}
	return strings.Join(parts, " ")
}

// rgPath strips rg's "./" prefix.
func rgPath(p []byte) string {
	return string(bytes.TrimPrefix(p, []byte("./")))
}

// parseRgLine splits "./path\x00LINE:..." (--null --line-number
// --no-heading --max-columns=1) into the path and the line number. The path
// is prev itself when it is the same, as it is for every line of a file
// but its first: no string is made for those.
func parseRgLine(b []byte, prev string) (string, int, bool) {
	i := bytes.IndexByte(b, 0)
	if i < 0 {
		return "", 0, false
	}
	rest := b[i+1:]
	j := bytes.IndexByte(rest, ':')
	if j < 0 {
		return "", 0, false
	}
	n, err := strconv.Atoi(string(rest[:j]))
	if err != nil || n < 1 {
		return "", 0, false
	}
	p := bytes.TrimPrefix(b[:i], []byte("./"))
	if string(p) == prev {
		return prev, n, true
	}
	return string(p), n, true
}
