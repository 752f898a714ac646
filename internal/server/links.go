package server

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// toolContent is a result's content: the envelope as text, then, for a
// client whose protocol has them, a resource_link to each handle and
// artifact the result holds, so that it can fetch them as resources.
func toolContent(res tool.Result, version string) []mcp.Content {
	content := []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}}
	if !speaksSince(version, revisionResourceLinks) {
		return content
	}
	for _, l := range res.Links {
		size := l.Size
		content = append(content, &mcp.ResourceLink{URI: l.URI, Name: l.Name, Title: l.Title, MIMEType: l.MIMEType, Size: &size, Description: readNote(l)})
	}
	return content
}

// readNote warns, in a link or a listing, of a resource too large for one
// resources/read, which refuses it.
func readNote(l tool.Link) string {
	if l.Size <= maxResourceBytes {
		return ""
	}
	via := "handle_read"
	if strings.HasPrefix(l.URI, artifactURIPrefix) {
		via = "perf_get_artifact"
	}
	return fmt.Sprintf("%d bytes, over the %d one resources/read returns: page it with the tool %s", l.Size, maxResourceBytes, via)
}
