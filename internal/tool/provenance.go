package tool

// ProvenanceKey is the result _meta key under which a call's provenance
// travels. MCP's _meta keys take a prefix of dot-separated labels ending
// in a slash, in reverse DNS notation; a prefix whose second label is
// "mcp" or "modelcontextprotocol" is reserved for the protocol, which
// "io.hostmcp/" is not.
const ProvenanceKey = "io.hostmcp/call"

// Provenance says which tool of which hostmcp on which host answered a
// call, when and in how long. It was in every envelope, about 150 bytes of
// each answer that a model reads and never acts on (as much as 2.6 % of a
// whole-file fs_read); it goes in the result's _meta instead, which clients
// keep for their logs and views but do not show the model. The call record
// (store.CallRecord) keeps its own tool, time and duration.
type Provenance struct {
	Tool        string `json:"tool" jsonschema:"name of the tool that answered"`
	ToolVersion string `json:"tool_version" jsonschema:"hostmcp version that answered"`
	Timestamp   string `json:"timestamp" jsonschema:"when the call started, RFC 3339 UTC"`
	DurationMS  int64  `json:"duration_ms" jsonschema:"wall time of the call in milliseconds"`
	Host        string `json:"host" jsonschema:"hostname of the machine that answered"`
}
