package view

import (
	"crypto/sha256"
	"encoding/base64"
	"regexp"
	"strings"
	"testing"
)

// block returns the text of the one element tag in page, and how many
// there are.
func block(t *testing.T, page, tag string) (string, int) {
	t.Helper()
	re := regexp.MustCompile(`(?s)<` + tag + `(\s[^>]*)?>(.*?)</` + tag + `>`)
	all := re.FindAllStringSubmatch(page, -1)
	if len(all) == 0 {
		return "", 0
	}
	return all[0][2], len(all)
}

// The page's policy names its one script and its one style by the hash of
// exactly their text, and allows nothing else: no source of any kind, no
// connection, no frame, form or base URL.
func TestPolicyAllowsOnlyThePagesOwnScriptAndStyle(t *testing.T) {
	page := string(HTML())
	for _, mark := range []string{cspMark, styleMark, scriptMark} {
		if strings.Contains(page, mark) {
			t.Errorf("the page still holds the placeholder %s", mark)
		}
	}
	script, n := block(t, page, "script")
	if n != 1 || script != string(viewJS) {
		t.Fatalf("%d scripts; want one, view.js whole", n)
	}
	style, n := block(t, page, "style")
	if n != 1 || style != string(viewCSS) {
		t.Fatalf("%d styles; want one, view.css whole", n)
	}
	meta := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy" content="([^"]*)">`).FindStringSubmatch(page)
	if meta == nil || meta[1] != Policy() {
		t.Fatalf("the page's policy meta: %q, want %q", meta, Policy())
	}
	directives := map[string]string{}
	for _, d := range strings.Split(Policy(), ";") {
		name, value, _ := strings.Cut(strings.TrimSpace(d), " ")
		directives[name] = value
	}
	sha := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
	}
	want := map[string]string{
		"default-src": "'none'", "script-src": sha(script), "style-src": sha(style),
		"img-src": "'none'", "font-src": "'none'", "connect-src": "'none'", "frame-src": "'none'",
		"object-src": "'none'", "base-uri": "'none'", "form-action": "'none'",
	}
	for k, v := range want {
		if directives[k] != v {
			t.Errorf("%s %q, want %q", k, directives[k], v)
		}
	}
	if len(directives) != len(want) {
		t.Errorf("the policy has directives %v, want only %v", directives, want)
	}
}

// The page loads nothing and writes no markup from data: every name it
// shows comes from a tool result, and a process may call itself anything.
// The policy would stop most of this anyway; this keeps the page from even
// trying, so that a browser that ignores the policy is no worse off.
func TestPageFetchesNothingAndBuildsNoMarkup(t *testing.T) {
	page := string(HTML())
	for _, s := range []string{"src=", "href=", "url(", "@import", "http-equiv=\"refresh\""} {
		if strings.Contains(page, s) {
			t.Errorf("the page holds %q", s)
		}
	}
	// The one URL in the page is SVG's namespace, which is a name, not a
	// place the page goes to.
	urls := regexp.MustCompile(`https?://[^\s"']+`).FindAllString(page, -1)
	for _, u := range urls {
		if u != "http://www.w3.org/2000/svg" {
			t.Errorf("the page names %s", u)
		}
	}
	for _, s := range []string{"fetch(", "XMLHttpRequest", "WebSocket", "EventSource", "sendBeacon", "import(",
		"innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval(", "Function(", "setAttribute(\"style\"", "localStorage", "sessionStorage", "document.cookie"} {
		if strings.Contains(string(viewJS), s) {
			t.Errorf("view.js uses %s", s)
		}
	}
	for _, s := range []string{"</script", "</style"} {
		if strings.Contains(strings.ToLower(string(viewJS)+string(viewCSS)), s) {
			t.Errorf("a block holds %s, which would end it early", s)
		}
	}
}

// The page speaks the revision of the extension it is declared as.
func TestPageSpeaksTheExtensionRevision(t *testing.T) {
	if !strings.Contains(string(viewJS), `const PROTOCOL = "`+SpecRevision+`";`) {
		t.Errorf("view.js does not send protocolVersion %s", SpecRevision)
	}
	if !strings.HasPrefix(URI, "ui://") || MIMEType != "text/html;profile=mcp-app" {
		t.Errorf("URI %q, MIME type %q", URI, MIMEType)
	}
}
