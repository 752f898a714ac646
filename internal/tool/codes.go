package tool

import "sort"

// The error codes: the union of the specs' codes (spec 000 section 10 and 5.3,
// spec 002 section 4.3.5, specs 003 and 004) plus the framework's own. A code
// is never renamed or reused for another meaning.
const (
	// Input.
	InvalidParams   Code = "INVALID_PARAMS"
	InvalidArgument Code = "INVALID_ARGUMENT"
	InvalidDuration Code = "INVALID_DURATION"
	InvalidPID      Code = "INVALID_PID"
	InvalidPath     Code = "INVALID_PATH"

	// Capability.
	ToolNotFound      Code = "TOOL_NOT_FOUND"
	HostUnreachable   Code = "HOST_UNREACHABLE" // another host's hostmcp, or Prometheus, did not answer (fleet)
	PermissionDenied  Code = "PERMISSION_DENIED"
	CapabilityMissing Code = "CAPABILITY_MISSING"
	PerfNotInstalled  Code = "PERF_NOT_INSTALLED"
	PerfParanoid      Code = "PERF_PARANOID"
	NoCapPerfmon      Code = "NO_CAP_PERFMON"
	FeatureDisabled   Code = "FEATURE_DISABLED"
	CommandNotAllowed Code = "COMMAND_NOT_ALLOWED"
	ReadOnlyMode      Code = "READ_ONLY"

	// Confirmation ([confirm]): a person must say yes first.
	Declined             Code = "DECLINED"              // a person said no, or did not answer
	ConfirmationRequired Code = "CONFIRMATION_REQUIRED" // no person could be asked

	// Execution.
	Timeout         Code = "TIMEOUT"
	Cancelled       Code = "CANCELLED"
	ExecutionFailed Code = "EXECUTION_FAILED"
	ParseError      Code = "PARSE_ERROR"
	Internal        Code = "INTERNAL"

	// Resources.
	OutputTruncated  Code = "OUTPUT_TRUNCATED"
	OutputTooLarge   Code = "OUTPUT_TOO_LARGE"
	ProfilerBusy     Code = "PROFILER_BUSY"
	LimitReached     Code = "LIMIT_REACHED"
	Busy             Code = "BUSY"         // the server's work in flight is at its limit ([load])
	RateLimited      Code = "RATE_LIMITED" // this client is over its call rate ([load])
	HandleNotFound   Code = "HANDLE_NOT_FOUND"
	HandleExpired    Code = "HANDLE_EXPIRED"
	HandleNotKept    Code = "HANDLE_NOT_KEPT" // given out, but its write failed after the call answered
	ArtifactNotFound Code = "ARTIFACT_NOT_FOUND"

	// System objects.
	CgroupNotFound  Code = "CGROUP_NOT_FOUND"
	DeviceNotFound  Code = "DEVICE_NOT_FOUND"
	PIDNotFound     Code = "PID_NOT_FOUND"
	ProcessNotFound Code = "PROCESS_NOT_FOUND"
	KillForbidden   Code = "KILL_FORBIDDEN"

	// Files.
	NotFound           Code = "NOT_FOUND"
	AlreadyExists      Code = "ALREADY_EXISTS"
	NotADirectory      Code = "NOT_A_DIRECTORY"
	IsDirectory        Code = "IS_DIRECTORY"
	NotAFile           Code = "NOT_A_REGULAR_FILE"
	BinaryFile         Code = "BINARY_FILE"
	ShaMismatch        Code = "SHA_MISMATCH"
	WriteFailed        Code = "WRITE_FAILED"
	PatchCountMismatch Code = "PATCH_COUNT_MISMATCH"
	PatchRejected      Code = "PATCH_REJECTED"
)

type codeInfo struct {
	recoverable bool
	suggestion  string
}

// catalogue gives each code its default recoverability and suggestion; a
// handler overrides the suggestion when it knows a more specific next call.
var catalogue = map[Code]codeInfo{
	InvalidParams:     {true, "Fix the arguments to match the tool's input schema and call again."},
	InvalidArgument:   {true, "Fix the named argument and call again."},
	InvalidDuration:   {true, "Use a duration within the limits given in the tool's schema."},
	InvalidPID:        {true, "Pass a positive pid of a running process; proc_list shows them."},
	InvalidPath:       {true, "Use a path inside the allowed roots; call fs_list on a root to see them."},
	ToolNotFound:      {false, "Install the missing program (scripts/deps.sh installs what hostmcp uses) or use a tool that does not need it."},
	HostUnreachable:   {true, "Check the host's row in fleet_overview: it is down, or the endpoint, proxy or token in [fleet] is wrong."},
	PermissionDenied:  {false, "Run hostmcp with the privileges this needs, or pick a target you are allowed to access."},
	CapabilityMissing: {false, "Check perf_info for what this host supports and use a tool that works without it."},
	PerfNotInstalled:  {false, "Install the linux-perf package (scripts/deps.sh does it)."},
	PerfParanoid:      {false, "Run as root or set /proc/sys/kernel/perf_event_paranoid to 1 or lower."},
	NoCapPerfmon:      {false, "Run as root or grant CAP_PERFMON to hostmcp."},
	FeatureDisabled:   {false, "The operator disabled this in the configuration; use another tool."},
	CommandNotAllowed: {false, "Use one of the allowlisted programs; the operator sets the list in the configuration."},
	ReadOnlyMode:      {false, "This server is read-only; only read-only tools can be used."},
	Declined:          {false, "Tell the user what you meant to do and why, and ask how to go on; do not repeat the call unless they ask you to. dry_run: true shows what it would do."},
	ConfirmationRequired: {false, "Tell the user this call needs their confirmation, which this client cannot ask for: use a client that supports MCP elicitation " +
		"(Claude Code 2.1.76+, VS Code 1.102+; over HTTP one on protocol 2026-07-28), or ask the operator, who decides in hostmcp's [confirm] configuration. dry_run: true shows what it would do."},
	Timeout:            {true, "Call again with a shorter duration or a narrower scope."},
	Cancelled:          {true, "Call again if the result is still needed."},
	ExecutionFailed:    {true, "Check the message for the program's error, adjust the call and retry."},
	ParseError:         {false, "The program's output was not understood; report it, and try another tool meanwhile."},
	Internal:           {false, "This is a bug in hostmcp; try another tool meanwhile."},
	OutputTruncated:    {true, "Read the rest with handle_read using the returned handle."},
	OutputTooLarge:     {true, "Narrow the request (fewer lines, a smaller window or a filter)."},
	ProfilerBusy:       {true, "Wait for the running profile to finish (a few seconds to a minute) and call again."},
	LimitReached:       {true, "Stop or wait for running work to finish, then call again."},
	Busy:               {true, "Call again after error.retry_after_ms, and run fewer calls at once."},
	RateLimited:        {true, "Wait error.retry_after_ms before the next call, and make fewer, broader calls."},
	HandleNotFound:     {false, "Handles expire after their TTL; call the tool that produced it again."},
	HandleExpired:      {false, "The handle expired; call the tool that produced it again."},
	HandleNotKept:      {true, "The result could not be stored (the server logged why); call the tool that produced it again."},
	ArtifactNotFound:   {false, "Artifacts expire after their TTL; list them with perf_list_artifacts or profile again."},
	CgroupNotFound:     {true, "Pass a cgroup path relative to the cgroup mount, or a pid to look it up."},
	DeviceNotFound:     {true, "Use a device name from perf_snapshot's io.devices."},
	PIDNotFound:        {true, "The process is gone or never existed; list processes with proc_list."},
	ProcessNotFound:    {true, "The process is gone or never existed; list processes with proc_list."},
	KillForbidden:      {false, "This process is protected (PID 1, the server, its ancestors, kernel threads); pick another pid."},
	NotFound:           {true, "Check the path; fs_list or search_files show what exists."},
	AlreadyExists:      {true, "Choose another target, or pass overwrite: true if replacing it is intended."},
	NotADirectory:      {true, "Pass a directory path."},
	IsDirectory:        {true, "Pass a file path, or recursive: true to act on a directory."},
	NotAFile:           {false, "Only regular files can be read or written; FIFOs, sockets and devices are refused."},
	BinaryFile:         {false, "This is a binary file; tools here read text only."},
	ShaMismatch:        {true, "The file changed since you read it: read it again, then retry with the new sha256."},
	WriteFailed:        {true, "Nothing was changed; check free space and permissions, then retry."},
	PatchCountMismatch: {true, "Make old_text unique (add surrounding lines) or set expected_replacements to the count found."},
	PatchRejected:      {true, "Re-read the file and regenerate the diff against its current content."},
}

// Codes lists every code, sorted, for documentation and tests.
func Codes() []Code {
	out := make([]Code, 0, len(catalogue))
	for c := range catalogue {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
