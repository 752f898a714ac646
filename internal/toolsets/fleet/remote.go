package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/buildinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// answer is one host's answer to fleet_call, in full: what the row
// shows, and the host's whole result for the handle.
type answer struct {
	Host       string           `json:"host"`
	Instance   string           `json:"instance"`
	OK         bool             `json:"ok"`
	ErrorCode  string           `json:"error_code,omitempty"`
	Error      string           `json:"error,omitempty"`
	Summary    string           `json:"summary,omitempty"`
	DurationMS int64            `json:"duration_ms"`
	Call       *tool.Provenance `json:"call,omitempty"`   // which tool answered, where, when (the result's _meta)
	Result     json.RawMessage  `json:"result,omitempty"` // the host's result envelope
}

// ask runs one tool on one host through its streamable HTTP endpoint,
// within host_timeout: connect (initialize), check in its tools/list that
// the tool is there and read-only (remoteReadOnly), call it. Every failure is an answer
// with a code, never an error: a host that fails is a row.
func (s *Set) ask(ctx context.Context, h host, name string, args json.RawMessage, token string) (a answer) {
	start := time.Now()
	a = answer{Host: h.Name, Instance: h.Instance}
	defer func() { a.DurationMS = time.Since(start).Milliseconds() }()
	hctx, cancel := context.WithTimeout(ctx, s.cfg.HostTimeout.Duration)
	defer cancel()
	rt := &hostTransport{base: s.transport.get(), token: token}
	client := mcp.NewClient(&mcp.Implementation{Name: "hostmcp-fleet", Version: buildinfo.Release}, nil)
	url := endpoint(s.cfg, h)
	cs, err := client.Connect(hctx, &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: rt, CheckRedirect: noRedirect},
		MaxRetries: -1, DisableStandaloneSSE: true, // one request, one answer: nothing to resume
	}, nil)
	if err != nil {
		return a.failed(s.classify(ctx, hctx, rt, err, "connecting"))
	}
	defer cs.Close()
	if err := s.remoteReadOnly(hctx, cs, url, name); err != nil {
		if te, ok := errors.AsType[*tool.Error](err); ok {
			return a.failed(te)
		}
		return a.failed(s.classify(ctx, hctx, rt, err, "listing its tools"))
	}
	res, err := cs.CallTool(hctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		return a.failed(s.classify(ctx, hctx, rt, err, "calling "+name))
	}
	return a.took(res)
}

// remoteReadOnly checks in the host's own tools/list that it serves the
// tool and marks it read-only: a host of another version (or configured
// otherwise) decides for itself what its tool does. Its answer is kept for
// kindsTTL.
func (s *Set) remoteReadOnly(ctx context.Context, cs *mcp.ClientSession, endpoint, name string) error {
	readOnly, known := s.kinds.get(endpoint, name, time.Now())
	if !known {
		var err error
		if readOnly, known, err = listedReadOnly(ctx, cs, name); err != nil {
			return err
		}
		if !known {
			return tool.Errorf(tool.InvalidArgument, "this host does not serve %s", name).
				WithSuggestion("Its operator chooses its toolsets; ask the hosts that serve it.")
		}
		s.kinds.put(endpoint, name, readOnly, time.Now())
	}
	if !readOnly {
		return tool.Errorf(tool.ReadOnlyMode, "this host does not mark %s read-only (readOnlyHint), and fleet_call runs read-only tools only", name)
	}
	return nil
}

// listedReadOnly finds the tool in the host's tools/list.
func listedReadOnly(ctx context.Context, cs *mcp.ClientSession, name string) (readOnly, served bool, err error) {
	for t, err := range cs.Tools(ctx, nil) {
		if err != nil {
			return false, false, err
		}
		if t.Name == name {
			return t.Annotations != nil && t.Annotations.ReadOnlyHint, true, nil
		}
	}
	return false, false, nil
}

// took reads the host's result envelope (structured content, or the same
// JSON as text before protocol 2025-06-18).
func (a answer) took(res *mcp.CallToolResult) answer {
	raw, err := json.Marshal(res.StructuredContent)
	if res.StructuredContent == nil || err != nil {
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				raw = json.RawMessage(t.Text)
				break
			}
		}
	}
	var env struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Preview json.RawMessage `json:"data_preview"`
		Error   *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(raw, &env); err != nil {
		return a.failed(tool.Errorf(tool.ParseError, "the host's answer is not a hostmcp result envelope: %v", err))
	}
	a.Result, a.Call = raw, provenance(res)
	if a.Host == "" && a.Call != nil {
		a.Host = a.Call.Host
	}
	if !env.Success || res.IsError {
		code, msg := string(tool.ExecutionFailed), "the tool failed"
		if env.Error != nil {
			code, msg = env.Error.Code, env.Error.Message
		}
		a.ErrorCode, a.Error = code, oneLine(msg)
		return a
	}
	if len(env.Data) == 0 { // over the host's output cap: its preview stands in
		env.Data = env.Preview
	}
	a.OK, a.Summary = true, summarize(env.Data)
	return a
}

// provenance reads which tool answered on which host from the result's
// _meta, where hostmcp puts it rather than in the envelope the model reads;
// nil from a server that does not say.
func provenance(res *mcp.CallToolResult) *tool.Provenance {
	v, ok := res.Meta[tool.ProvenanceKey]
	if !ok {
		return nil
	}
	raw, err := json.Marshal(v)
	var p tool.Provenance
	if err != nil || json.Unmarshal(raw, &p) != nil {
		return nil
	}
	return &p
}

func (a answer) failed(err *tool.Error) answer {
	a.OK, a.ErrorCode, a.Error = false, string(err.Code), oneLine(err.Message)
	return a
}

// classify names what went wrong with a host: its time ran out, it
// refused the token, it was busy, or it could not be reached at all.
func (s *Set) classify(call, hostCtx context.Context, rt *hostTransport, err error, doing string) *tool.Error {
	switch {
	case errors.Is(call.Err(), context.Canceled):
		return tool.Errorf(tool.Cancelled, "fleet_call was cancelled while %s", doing)
	case call.Err() != nil:
		return tool.Errorf(tool.Timeout, "not finished when fleet_call's own time ran out (%s)", doing)
	case hostCtx.Err() != nil:
		return tool.Errorf(tool.Timeout, "no answer within host_timeout (%s) while %s", s.cfg.HostTimeout.Duration, doing)
	}
	if rt.tooLarge.Load() {
		return tool.Errorf(tool.HostUnreachable, "the host's answer is over %d MiB, cut off while %s", maxAnswerBytes>>20, doing)
	}
	switch st := int(rt.status.Load()); {
	case st >= 300 && st < 400:
		return tool.Errorf(tool.HostUnreachable, "HTTP %d %s from its endpoint while %s: redirects are not followed (the token would go along)", st, http.StatusText(st), doing)
	case st == http.StatusUnauthorized || st == http.StatusForbidden:
		return tool.Errorf(tool.PermissionDenied, "the host refused the token (HTTP %d)", st)
	case st == http.StatusTooManyRequests:
		return tool.Errorf(tool.Busy, "the host is busy (HTTP 429)")
	case st >= 400:
		return tool.Errorf(tool.HostUnreachable, "HTTP %d %s from its endpoint while %s", st, http.StatusText(st), doing)
	}
	return tool.Errorf(tool.HostUnreachable, "%s: %s", doing, tool.Clip(err.Error()))
}

// maxAnswerBytes bounds one HTTP answer of a host: a result within the
// largest max_output_bytes a host may set (16 MiB), its envelope and its
// JSON escaping fit; a host that sends more is cut off, not held in memory.
const maxAnswerBytes = 32 << 20

// noRedirect leaves a redirect unfollowed: hostTransport would carry the
// token to wherever a host (or a proxy) points.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// hostTransport sends the bearer token (to hosts; Prometheus gets none),
// bounds each answer, and remembers the last HTTP status that was not a
// success, which the SDK's errors do not carry.
type hostTransport struct {
	base     http.RoundTripper
	token    string
	status   atomic.Int32
	tooLarge atomic.Bool
}

func (t *hostTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.token != "" {
		req = req.Clone(req.Context())
		req.Header.Set("Authorization", "Bearer "+t.token)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		t.status.Store(int32(resp.StatusCode))
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, left: maxAnswerBytes, over: &t.tooLarge}
	return resp, nil
}

// cappedBody fails a read past its bound.
type cappedBody struct {
	io.ReadCloser
	left int64
	over *atomic.Bool
}

func (b *cappedBody) Read(p []byte) (int, error) {
	if b.left <= 0 {
		b.over.Store(true)
		return 0, fmt.Errorf("the answer is over %d MiB", maxAnswerBytes>>20)
	}
	if int64(len(p)) > b.left {
		p = p[:b.left]
	}
	n, err := b.ReadCloser.Read(p)
	b.left -= int64(n)
	return n, err
}

// summarize is one line about a tool's data: its verdict or status where
// it has one (perf_use_check's summary.verdict), else the start of it.
func summarize(data json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(data, &m) == nil {
		if sum, ok := m["summary"]; ok {
			var inner map[string]json.RawMessage
			if json.Unmarshal(sum, &inner) == nil {
				m = inner
			} else if s := str(sum); s != "" {
				return oneLine(s)
			}
		}
		for _, k := range []string{"verdict", "status", "message"} {
			if s := str(m[k]); s != "" {
				return oneLine(s)
			}
		}
	}
	return oneLine(string(data))
}

func str(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return ""
	}
	return s
}

// oneLine makes s one line of at most tool.ClipBytes.
func oneLine(s string) string {
	return tool.Clip(strings.Join(strings.Fields(s), " "))
}
