package repl

import (
	"os"
	"path/filepath"

	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/landlock"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// systemFiles are what the interpreters need besides the roots, found by
// running python3, node, irb and sqlite3 under the policy: programs, the
// loader and libraries, the standard libraries and terminfo under /usr
// (executable, so that a session can run the system's programs, each as
// confined as itself); and a few files of /etc: the loader's cache, the time zone, the user database that
// getpwuid reads, readline's and OpenSSL's defaults, and Debian's Python
// configuration. No secret lives in any of them.
var systemFiles = []landlock.PathRule{
	{Path: "/usr", Access: landlock.Exec},
	{Path: "/bin", Access: landlock.Exec}, // directories of their own where /usr is not merged
	{Path: "/sbin", Access: landlock.Exec},
	{Path: "/etc/localtime", Access: landlock.Read},
	{Path: "/etc/passwd", Access: landlock.Read},
	{Path: "/etc/group", Access: landlock.Read},
	{Path: "/etc/nsswitch.conf", Access: landlock.Read},
	{Path: "/etc/inputrc", Access: landlock.Read},
	{Path: "/etc/terminfo", Access: landlock.Read},
	{Path: "/etc/ld.so.preload", Access: landlock.Read},
	{Path: "/etc/ssl/openssl.cnf", Access: landlock.Read},
	{Path: "/var/lib/gems", Access: landlock.Read}, // Debian's system-wide Ruby gems
	{Path: "/dev/zero", Access: landlock.Read},
	{Path: "/dev/random", Access: landlock.Read},
	{Path: "/dev/urandom", Access: landlock.Read},
	{Path: "/dev/tty", Access: landlock.Device},
}

// networkFiles are read as well when sessions may use TCP: name
// resolution and the certificate authorities.
var networkFiles = []landlock.PathRule{
	{Path: "/etc/hosts", Access: landlock.Read},
	{Path: "/etc/host.conf", Access: landlock.Read},
	{Path: "/etc/resolv.conf", Access: landlock.Read},
	{Path: "/etc/gai.conf", Access: landlock.Read},
	{Path: "/etc/services", Access: landlock.Read},
	{Path: "/etc/protocols", Access: landlock.Read},
	{Path: "/etc/ssl/certs", Access: landlock.Read},
}

// pythonConfig is Debian's per-version Python configuration
// (/usr/lib/python3.X/sitecustomize.py links into it).
const pythonConfig = "/etc/python3*"

// confinement is how a session is confined on this kernel.
type confinement struct {
	landlock bool   // confined by Landlock at all
	tcp      bool   // TCP left open, by [repl] network or for want of ABI 4
	warning  string // what the session runs without although the configuration asks for it
}

// confinement checks that this kernel can confine a session as configured
// and says how, or refuses with the setting that would allow it.
func (s *Set) confinement() (confinement, error) {
	network := s.conf.Network
	switch {
	case s.abi == 0 && !s.conf.Unconfined:
		return confinement{}, tool.Errorf(tool.CapabilityMissing, "sessions cannot be confined: %v", landlock.ErrUnsupported).
			WithSuggestion("Run hostmcp on a kernel with Landlock, or, knowing that a session may then read and write whatever its user may, set [repl] unconfined = true.")
	case s.abi == 0:
		return confinement{tcp: true, warning: "this session is not confined: the kernel has no Landlock ([repl] unconfined = true)"}, nil
	case s.abi < landlock.TCPABI && !network && !s.conf.Unconfined:
		return confinement{}, tool.Errorf(tool.CapabilityMissing, "sessions cannot be kept off the network: the kernel's Landlock ABI %d cannot deny TCP (ABI %d, Linux 6.7, can)", s.abi, landlock.TCPABI).
			WithSuggestion("Set [repl] network = true to allow sessions TCP, or [repl] unconfined = true to run them without the network rule.")
	case s.abi < landlock.TCPABI && !network:
		return confinement{landlock: true, tcp: true, warning: "TCP is not denied to this session: the kernel's Landlock cannot deny it ([repl] unconfined = true)"}, nil
	}
	return confinement{landlock: true, tcp: network || s.abi < landlock.TCPABI}, nil
}

// ruleset builds the Landlock ruleset of a session: read and write below
// the read-write roots, read below the read-only roots, read and write on
// its own terminal, and systemFiles. Every file is opened here, so the
// rules hold for what the server resolved, whatever the paths lead to once
// the session runs. The session init adds what it mounts itself: its
// private /proc to read, its HOME to write.
func (s *Set) ruleset(roots *fsroot.Set, program string, tty *os.File, tcp bool) (*os.File, error) {
	var rules []landlock.Rule
	defer func() {
		for _, r := range rules {
			if r.File != tty {
				r.File.Close()
			}
		}
	}()
	for _, r := range roots.Roots() {
		d, err := r.OS().Open(".")
		if err != nil {
			return nil, err
		}
		access := landlock.Write
		if r.ReadOnly {
			access = landlock.Read
		}
		rules = append(rules, landlock.Rule{File: d, Access: access})
	}
	if tty != nil {
		rules = append(rules, landlock.Rule{File: tty, Access: landlock.Device})
	}
	paths := append([]landlock.PathRule(nil), systemFiles...)
	if tcp {
		paths = append(paths, networkFiles...)
	}
	matches, _ := filepath.Glob(pythonConfig) // the pattern is well-formed
	for _, m := range matches {
		paths = append(paths, landlock.PathRule{Path: m, Access: landlock.Read})
	}
	return landlock.NewRuleset(landlock.Policy{Rules: rules, Paths: paths, Program: program, TCP: tcp})
}
