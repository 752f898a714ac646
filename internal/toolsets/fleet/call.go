package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// passedArgs keeps fleet_call's args as they came: the host's tool
// validates them against its own schema.
type passedArgs struct{ raw json.RawMessage }

func (p *passedArgs) UnmarshalJSON(b []byte) error {
	p.raw = append(json.RawMessage(nil), b...)
	return nil
}

type callIn struct {
	Tool  string     `json:"tool" jsonschema:"the read-only tool to run on each host, e.g. perf_use_check or sys_snapshot"`
	Args  passedArgs `json:"args,omitempty" jsonschema:"its arguments, as for a direct call; default {}"`
	Hosts []string   `json:"hosts,omitempty" jsonschema:"hosts or instances from fleet_overview"`
	TopK  int        `json:"top_k,omitempty" jsonschema:"the k worst hosts of fleet_overview's ranking"`
}

// row is one host in fleet_call's answer.
type row struct {
	Host       string `json:"host"`
	Instance   string `json:"instance"`
	OK         bool   `json:"ok"`
	ErrorCode  string `json:"error_code,omitempty" jsonschema:"why this host gave no result"`
	Summary    string `json:"summary" jsonschema:"one line: the result's verdict or status, or the error"`
	DurationMS int64  `json:"duration_ms"`
}

type callOut struct {
	Tool   string `json:"tool"`
	Hosts  []row  `json:"hosts" jsonschema:"one per host asked, in the order asked; a host that failed or timed out is a row with its error"`
	OK     int    `json:"ok" jsonschema:"hosts that answered"`
	Failed int    `json:"failed"`
	Handle string `json:"handle" jsonschema:"every host's full result, one JSON line per host after the first: read it with handle_read"`
}

// maxTopK bounds top_k and hosts: one call answers one row per host.
const maxTopK = 256

func (s *Set) call() *tool.Def {
	return tool.New(tool.Spec{
		Name:        "fleet_call",
		Kind:        tool.ReadOnly,
		OpenWorld:   true,
		Title:       "Run a read-only tool on many hosts",
		Description: "Run one read-only tool on chosen hosts of the fleet, a few at a time, each within its time limit: one line per host, and a handle with every full result.",
		Timeout:     60 * time.Second,
	}, s.handleCall).WithOpenObject("args").WithMaxLength("tool", 64).WithMaxItems("hosts", maxTopK, 512).
		WithRange("top_k", 1, maxTopK).WithExactlyOne("hosts", "top_k")
}

func (s *Set) handleCall(ctx context.Context, call *tool.Call, in callIn) (callOut, error) {
	name := strings.TrimSpace(in.Tool)
	if err := s.checkReadOnly(name); err != nil {
		return callOut{}, err
	}
	args := in.Args.raw
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage("{}")
	}
	chosen, err := s.choose(ctx, in)
	if err != nil {
		return callOut{}, err
	}
	token, err := s.cfg.Token()
	if err != nil {
		return callOut{}, tool.Wrap(tool.FeatureDisabled, err, "the fleet token cannot be read: %v", err).
			WithSuggestion("Ask the operator to fix [fleet] token_file.")
	}
	answers := s.fanOut(ctx, call, chosen, name, args, token)

	out := callOut{Tool: name, Hosts: make([]row, 0, len(answers))}
	for _, a := range answers {
		r := row{Host: a.Host, Instance: a.Instance, OK: a.OK, ErrorCode: a.ErrorCode, Summary: a.Summary, DurationMS: a.DurationMS}
		if !a.OK {
			r.Summary = a.Error
			out.Failed++
		} else {
			out.OK++
		}
		out.Hosts = append(out.Hosts, r)
	}
	payload, err := handlePayload(name, args, answers)
	if err != nil {
		return callOut{}, err
	}
	out.Handle, err = call.PutHandle(ctx, "fleet_call", map[string]any{"tool": name, "hosts": len(answers), "ok": out.OK}, payload)
	if err != nil {
		return callOut{}, err
	}
	return out, nil
}

// handlePayload is every host's full answer as JSON lines, for
// handle_read to page by lines: the call first, then one host a line.
func handlePayload(name string, args json.RawMessage, answers []answer) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	if err := enc.Encode(struct {
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
	}{name, args}); err != nil {
		return nil, tool.Wrap(tool.Internal, err, "encoding the call: %v", err)
	}
	for _, a := range answers {
		if err := enc.Encode(a); err != nil {
			return nil, tool.Wrap(tool.Internal, err, "encoding %s's answer: %v", a.Instance, err)
		}
	}
	return buf.Bytes(), nil
}

// checkReadOnly refuses, before any host is asked, a tool this binary
// knows to change something, and the fleet tools themselves (a fan-out of
// fan-outs).
func (s *Set) checkReadOnly(name string) error {
	if strings.HasPrefix(name, "fleet_") {
		return tool.Errorf(tool.InvalidArgument, "fleet_call runs a host's own tool, not %s", tool.Clip(name)).
			WithSuggestion("Name a host tool such as perf_use_check or sys_snapshot.")
	}
	if k, known := s.kindOf(name); known && k != tool.ReadOnly {
		return tool.Errorf(tool.ReadOnlyMode, "%s is %s, and fleet_call runs read-only tools only", name, k).
			WithSuggestion("Use a read-only tool; to change one host, connect to that host's hostmcp directly.")
	}
	return nil
}

// choose resolves hosts or top_k to the hosts to ask.
func (s *Set) choose(ctx context.Context, in callIn) ([]host, error) {
	if in.TopK > 0 {
		p, err := s.prometheus("top_k")
		if err != nil {
			return nil, err
		}
		ranked, known, err := s.rank(ctx, p)
		if err != nil {
			return nil, err
		}
		var names []string
		for _, r := range ranked[:min(len(ranked), in.TopK)] {
			names = append(names, r.Instance)
		}
		return pick(known, names)
	}
	var p *prom
	if s.cfg.PrometheusURL != "" {
		var err error
		if p, err = s.prometheus("fleet_call"); err != nil {
			return nil, err
		}
	}
	known, err := s.knownHosts(ctx, p)
	if err != nil {
		return nil, err
	}
	return pick(known, in.Hosts)
}

// fanOut asks every host, at most parallelism at once, and returns their
// answers in the order of hosts. The fan-out stops a little before the
// call's own deadline, so that hosts not yet answered are rows saying so
// rather than a whole call lost to TIMEOUT.
func (s *Set) fanOut(ctx context.Context, call *tool.Call, hosts []host, name string, args json.RawMessage, token string) []answer {
	if dl, ok := ctx.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, dl.Add(-min(time.Second, time.Until(dl)/10)))
		defer cancel()
	}
	answers := make([]answer, len(hosts))
	slots := make(chan struct{}, s.cfg.Parallelism)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	for i, h := range hosts {
		wg.Go(func() {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				answers[i] = answer{Host: h.Name, Instance: h.Instance}.failed(
					tool.Errorf(tool.Timeout, "not asked: fleet_call's own time ran out first; ask fewer hosts, or the operator can raise [tools.fleet_call] timeout"))
				return
			}
			answers[i] = s.ask(ctx, h, name, args, token)
			<-slots
			mu.Lock()
			done++
			call.Progress(ctx, float64(done), float64(len(hosts)), fmt.Sprintf("%d of %d hosts answered", done, len(hosts)))
			mu.Unlock()
		})
	}
	wg.Wait()
	return answers
}
