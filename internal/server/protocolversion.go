package server

import "github.com/modelcontextprotocol/go-sdk/mcp"

// MCP revisions whose additions change what hostmcp may send. Revisions are
// dates, so they compare as strings.
const (
	// resource_link content items in tool results.
	revisionResourceLinks = "2025-06-18"
)

// requestVersion is the protocol version a request speaks: its own, from
// 2026-07-28 on (carried in its _meta), else its session's, negotiated at
// initialize. Empty when neither is known.
func requestVersion(req *mcp.CallToolRequest) string {
	if req == nil {
		return ""
	}
	return req.ProtocolVersion()
}

// speaksSince reports whether a request's protocol version has what
// revision added. An unknown version is taken for the newest: the SDK knows
// the version of every session it serves.
func speaksSince(version, revision string) bool {
	return version == "" || version >= revision
}
