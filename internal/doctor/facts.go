package doctor

import (
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Facts is everything the doctor judges, gathered by Collect.
type Facts struct {
	// Config is the loaded configuration; nil when it did not load, and
	// then ConfigErr says why and nothing else was gathered.
	Config     *config.Config
	ConfigErr  error
	ConfigFile string // the file loaded, "" for none
	// OpenErr is why the server could not be built (state store, programs,
	// toolsets); Toolsets and Programs are then empty.
	OpenErr  error
	Toolsets []ToolsetFacts
	Programs []Program

	Roots        []RootFacts
	RootWarnings []string // fsroot.Warnings, as serve logs them

	Caps        hostinfo.Capabilities
	Virt        hostinfo.Virtualization
	HostErr     error
	LandlockABI int
	UserNS      UserNSFacts

	State StateFacts
	Token TokenFacts
}

// ToolsetFacts is one served toolset and its served tools.
type ToolsetFacts struct {
	Name  string
	Tools []string
}

// Program is an allowlisted program and where it was found ("" if not).
type Program struct {
	Name, Path string
}

// RootFacts is what the file system says about one root.
type RootFacts struct {
	Root config.Root
	// ReadOnlyMount: the root's file system is mounted read-only here (a
	// systemd unit's ProtectSystem=, a read-only bind mount).
	ReadOnlyMount bool
	// Writable: this process may create files in it (access(2) W_OK).
	Writable bool
	Err      error
}

// UserNSFacts says whether sessions (repl) need a user namespace here and,
// if the kernel refuses one, which setting does and how to lift it.
type UserNSFacts struct {
	Needed  bool
	Blocked string
	Fix     string
}

// StateFacts describes the state directory after the server opened it.
type StateFacts struct {
	Path string
	Mode uint32 // permission bits
	UID  int
	Err  error
}

// TokenFacts says where the HTTP bearer token comes from and whether it
// is usable; the token itself is never kept.
type TokenFacts struct {
	Source  string // "env HOSTMCP_TOKEN", "file PATH" or ""
	Err     error
	AddrErr error // httpserve.CheckAddr: no token on a non-loopback address
}
