// Package view is hostmcp's MCP App: one HTML page that draws the results
// of the profiling and tracing tools (flame graphs, latency histograms) in
// clients that render apps, as the MCP Apps extension (SEP-1865, stable
// revision 2026-01-26) defines them. The page is the same for every result:
// it holds no data of its own and draws whatever tool result the host hands
// it over postMessage, so one resource serves every call, and a client that
// does not render apps loses nothing but the drawing.
package view

import (
	"bytes"
	"crypto/sha256"
	_ "embed"
	"encoding/base64"
	"fmt"
)

// What the extension names, and what hostmcp serves under it.
const (
	// Extension is the extension's identifier, the key under which a
	// client's capabilities declare it.
	Extension = "io.modelcontextprotocol/ui"
	// MIMEType is the one content type the extension renders: an HTML page
	// that speaks its protocol.
	MIMEType = "text/html;profile=mcp-app"
	// SpecRevision is the revision of the extension implemented here; the
	// page sends it in ui/initialize.
	SpecRevision = "2026-01-26"
	// URI names the page. Tools whose results it draws point to it.
	URI = "ui://hostmcp/profile-view"
)

// The page is assembled from three files so that its script and style can
// be allowed by their hashes: page.html holds the markup with a
// placeholder for each.
var (
	//go:embed page.html
	pageHTML []byte
	//go:embed view.css
	viewCSS []byte
	//go:embed view.js
	viewJS []byte
)

// Placeholders in page.html.
const (
	cspMark    = "{{CSP}}"
	styleMark  = "{{STYLE}}"
	scriptMark = "{{SCRIPT}}"
)

// HTML is the page as served: the style and the script inline, each allowed
// by its SHA-256 in the page's own Content-Security-Policy, which allows
// nothing else (Policy). It is the same bytes on every call.
func HTML() []byte {
	p := bytes.Replace(pageHTML, []byte(cspMark), []byte(Policy()), 1)
	p = bytes.Replace(p, []byte(styleMark), viewCSS, 1)
	return bytes.Replace(p, []byte(scriptMark), viewJS, 1)
}

// Policy is the page's Content-Security-Policy: no fetch, frame, form,
// image, font or plugin, no base URL, and of scripts and styles only the
// page's own, named by hash, so that a name in the data (a process may call
// itself anything) can never become markup that runs. The host applies its
// own policy on top (the extension's restrictive default: the page declares
// no domain); the stricter of the two wins.
func Policy() string {
	return fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; img-src 'none'; font-src 'none'; "+
		"connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'",
		hash(viewJS), hash(viewCSS))
}

// hash is a CSP source expression for an inline block of exactly b.
func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// ResourceMeta is the _meta of the page's resource, in resources/list and on
// its content in resources/read: no domain of any kind (the extension's
// most restrictive policy), and a border from the host around the drawing.
func ResourceMeta() map[string]any {
	return map[string]any{"ui": map[string]any{"csp": map[string]any{}, "prefersBorder": true}}
}

// ToolMeta is the _meta of a tool whose results the page draws: the
// extension's ui.resourceUri, and the flat ui/resourceUri key that hosts
// built before the extension was stable still read (the extension's own SDK
// sets both). Its visibility is the model's alone: the page calls no tool,
// so a host refuses it any call of these.
func ToolMeta() map[string]any {
	return map[string]any{"ui": map[string]any{"resourceUri": URI, "visibility": []string{"model"}}, "ui/resourceUri": URI}
}
