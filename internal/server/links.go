package server

import (
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// toolContent is a result's content: the envelope as text, then a
// resource_link to each handle and artifact the result holds, so that a
// client can fetch them as resources. A client whose protocol revision
// predates resource links gets the text alone (contentFor, with the rest
// of what each revision defines).
func toolContent(res tool.Result) []mcp.Content {
	content := []mcp.Content{&mcp.TextContent{Text: string(res.JSON)}}
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
