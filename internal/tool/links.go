package tool

import (
	"fmt"
	"slices"
)

// URI prefixes of what hostmcp serves as resources: a result's handle, and
// a file a profiling tool produced.
const (
	HandleURIPrefix   = "hostmcp://handle/"
	ArtifactURIPrefix = "hostmcp://artifact/"
)

// HandleMIME is the media type of every handle, whether it holds indented
// JSON, JSON Lines or a file's text: one type, so the resource template can
// name it and resources/read agrees with it. The link's title says which.
const HandleMIME = "text/plain"

// Link is a resource an answer points to. The server sends each as a
// resource_link content item beside the envelope's text, for clients that
// fetch or show resources instead of paging with handle_read.
type Link struct {
	URI      string
	Name     string // the handle or artifact id
	Title    string // what it holds, for people
	MIMEType string
	Size     int64 // bytes
}

// HandleLink is the link to a handle.
func HandleLink(id, typ string, meta map[string]any, size int64) Link {
	return Link{URI: HandleURIPrefix + id, Name: id, Title: HandleTitle(typ, meta), MIMEType: HandleMIME, Size: size}
}

// ArtifactLink is the link to an artifact.
func ArtifactLink(id, tool, typ, mime string, size int64) Link {
	return Link{URI: ArtifactURIPrefix + id, Name: id, Title: fmt.Sprintf("%s %s", tool, typ), MIMEType: mime, Size: size}
}

// HandleTitle says what a handle holds, from what its producer recorded.
func HandleTitle(typ string, meta map[string]any) string {
	what, _ := meta["tool"].(string)
	if what == "" {
		what, _ = meta["kind"].(string)
	}
	if what == "" {
		what = typ
	}
	switch {
	case meta["format"] == "jsonl":
		return what + ", one JSON object per line"
	case typ == "result":
		return what + " result, as indented JSON"
	case meta["path"] != nil:
		return fmt.Sprintf("%s of %v", what, meta["path"])
	}
	return what
}

// Link adds a resource the answer points to; PutHandle adds its handle's.
func (c *Call) Link(l Link) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.links = append(c.links, l)
}

// Links returns the links added so far.
func (c *Call) Links() []Link {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.links)
}
