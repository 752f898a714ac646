// Package server builds the MCP server from the enabled toolsets: it owns the
// path every call takes (validation, limits, audit, metrics) and the prompts
// and resources that sit beside the tools.
package server

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/admit"
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/sampler"
	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// Options are what the server is built from. The caller opens the store and
// owns its lifetime.
type Options struct {
	Config  *config.Config
	Store   *store.Store
	Version string
	Logger  *slog.Logger // nil discards
	// Toolsets are every toolset this binary has, enabled or not; the
	// configuration picks among them. cmd/hostmcp builds them.
	Toolsets []tool.Toolset
	// Admission bounds the load ([load]); nil builds it from Config. The
	// app passes the one its execx runner counts children against.
	Admission *admit.Control
	// Sampler, when set, puts the host's health on /metrics: the USE
	// check's verdicts over its recent window (health_metrics.go).
	Sampler *sampler.Sampler
}

// Server is a built hostmcp server: the enabled tools, the runner every call
// goes through, and the MCP server that exposes them.
type Server struct {
	opts    Options
	runner  *tool.Runner
	tools   map[string]*tool.Def
	order   []*tool.Def
	served  []tool.Toolset
	metrics *Metrics
	mcp     *mcp.Server
	log     *slog.Logger
	session string // names the stdio client in call records
	roots   *clientRoots
	load    *admit.Control
	// questions signs the confirmations 2026-07-28 clients carry back.
	questions *questions
	// toolsReady is closed once every served tool is registered with mcp
	// (registerTools).
	toolsReady chan struct{}
}

// New builds the server from the enabled toolsets.
func New(opts Options) (*Server, error) {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	host, _ := os.Hostname()
	served, err := selectTools(opts.Config, opts.Toolsets)
	if err != nil {
		return nil, err
	}
	s := &Server{
		opts:    opts,
		tools:   map[string]*tool.Def{},
		served:  served,
		metrics: NewMetrics(),
		log:     log,
		roots:   newClientRoots(opts.Config, log),
		session: fmt.Sprintf("local-%d", os.Getpid()),
	}
	if s.load = opts.Admission; s.load == nil {
		s.load = NewAdmission(opts.Config)
	}
	s.metrics.reg.MustRegister(loadCollector{s.load}, hostInfoCollector{})
	if opts.Sampler != nil {
		s.metrics.reg.MustRegister(healthCollector{opts.Sampler})
	}
	if opts.Store != nil {
		s.metrics.reg.MustRegister(auditCollector{opts.Store}, handleCollector{opts.Store})
	}
	for _, ts := range served {
		for _, d := range ts.Tools {
			s.tools[d.Spec.Name] = d
			s.order = append(s.order, d)
		}
	}
	var built []*tool.Def
	for _, ts := range opts.Toolsets {
		built = append(built, ts.Tools...)
	}
	confirm, err := tool.NewConfirmPolicy(opts.Config.Confirm, built)
	if err != nil {
		return nil, err
	}
	s.questions = newQuestions(confirm.AnswerTimeout)
	s.runner = &tool.Runner{
		Host:    host,
		Version: opts.Version,
		Handles: s.putHandle,
		// A listing's lines are sized at once and written with the
		// handle, after the answer.
		HandlesLater:  s.opts.Store.PutHandleLater,
		HandleIDAhead: s.opts.Store.CheckIDAhead,
		Admission:     s.load,
		Confirm:       confirm,
		Limits: func(spec tool.Spec) tool.Limits {
			t, c := opts.Config.ToolLimits(spec.Name, spec.Timeout, spec.OutputCap)
			return tool.Limits{Timeout: t, OutputCap: c}
		},
	}
	s.mcp = s.buildMCP()
	return s, nil
}

// putHandle keeps a tool's result as a handle, written after the call
// answers: the handle's readers wait for the write (store.PutHandleAsync).
func (s *Server) putHandle(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
	h, err := s.opts.Store.PutHandleAsync(ctx, typ, meta, payload)
	if err != nil {
		return "", err
	}
	return h.ID, nil
}

// MCP is the MCP server to connect transports to.
func (s *Server) MCP() *mcp.Server { return s.mcp }

// Admission is the load control every call and HTTP request goes through.
func (s *Server) Admission() *admit.Control { return s.load }

// Metrics is the Prometheus registry served at /metrics.
func (s *Server) Metrics() *Metrics { return s.metrics }

// Tools lists the served tools in catalogue order.
func (s *Server) Tools() []*tool.Def { return s.order }

// Toolsets lists the served toolsets with only their served tools.
func (s *Server) Toolsets() []tool.Toolset { return s.served }

// ToolNames lists the served tools' names, sorted.
func (s *Server) ToolNames() []string {
	names := make([]string, 0, len(s.tools))
	for n := range s.tools {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Serves reports whether the tool named name is served.
func (s *Server) Serves(name string) bool {
	_, ok := s.tools[name]
	return ok
}

// Call runs one tool in-process, as `hostmcp call` does, through the same
// runner, audit and metrics as an MCP call.
func (s *Server) Call(ctx context.Context, name string, args json.RawMessage) (tool.Result, error) {
	d, ok := s.tools[name]
	if !ok {
		return tool.Result{}, fmt.Errorf("unknown tool %q (served tools: %v)", name, s.ToolNames())
	}
	return s.run(ctx, tool.Invocation{Def: d, Args: args, Session: s.session, Client: "session:" + s.session}), nil
}

// run is the one path of every call: the runner, then its record and
// metrics. The call may run other served tools through s (Call.Tools),
// which take this same path.
func (s *Server) run(ctx context.Context, inv tool.Invocation) tool.Result {
	inv.Tools = s
	res := s.runner.Run(ctx, inv)
	s.metrics.observe(inv.Def.Spec.Name, res)
	s.audit(inv, res)
	return res
}
