package config

// ProcessConf sets the guardrails of the proc toolset (proc_list, proc_tree,
// proc_kill) and the log files sys_logs may read when the host has no
// journal. Spec 002 section 8 asks for strong defaults: the agent sees and
// signals only the server user's processes unless the operator widens that.
type ProcessConf struct {
	// AllowKillOtherUsers lets proc_kill signal processes whose real or
	// effective user differs from the server's. PID 1, the server, its
	// ancestors and kernel threads stay protected whatever this says.
	AllowKillOtherUsers bool `toml:"allow_kill_other_users"`
	// ListOtherUsers shows other users' processes in proc_list and their
	// command lines in proc_tree. Off by default (spec 002 section 8): argv
	// often carries secrets (passwords, tokens in URLs) and on a shared host
	// the agent has no business reading them.
	ListOtherUsers bool `toml:"list_other_users"`
	// LogFiles are the only files sys_logs reads when there is no systemd
	// journal. auth.log and secure are left out of the default: they hold
	// user names, source addresses and sudo command lines.
	LogFiles []string `toml:"log_files"`
}

// DefaultProcess is the strict default of spec 002 section 8 with the
// common syslog files of Debian and Red Hat systems.
func DefaultProcess() ProcessConf {
	return ProcessConf{
		LogFiles: []string{"/var/log/syslog", "/var/log/messages", "/var/log/kern.log"},
	}
}
