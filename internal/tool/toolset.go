package tool

// Toolset is a named group of tools served or left out together
// (`--toolsets`, [toolsets] enabled).
type Toolset struct {
	Name        string
	Description string
	// DefaultEnabled says whether the toolset is served when the operator
	// named no toolsets. Sensitive ones (logs) are off by default.
	DefaultEnabled bool
	Tools          []*Def
	// Tracing says its tools find kernel tracepoints through tracefs
	// (eBPF programs, bpftrace): serving it makes the server mount tracefs
	// at start-up where none is mounted.
	Tracing bool
	// Close, when set, ends what the toolset keeps running between calls
	// (interactive sessions, background jobs) when the server shuts down.
	Close func()
}
