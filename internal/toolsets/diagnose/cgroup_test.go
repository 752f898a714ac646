package diagnose

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
	"github.com/hostmcp/hostmcp/internal/tool"
	"github.com/hostmcp/hostmcp/internal/tool/tooltest"
)

// perf_cgroup_summary takes exactly one of pid and cgroup_path. Its schema
// says so where every client shows it to the model, the two arguments'
// descriptions (a top-level oneOf would make Anthropic's API refuse every
// request carrying the tool list), and the call is refused by that same
// rule: an argument counts as given when it is present and not null.
func TestCgroupSummaryTakesExactlyOneOfPIDAndPath(t *testing.T) {
	d := newSet().cgroupSummary()
	var schema struct {
		Properties map[string]struct {
			Description string `json:"description"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(d.MCPTool().InputSchema.(json.RawMessage), &schema); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"pid", "cgroup_path"} {
		if desc := schema.Properties[p].Description; !strings.Contains(desc, "exactly one of pid, cgroup_path") {
			t.Errorf("%s: description %q does not state the rule", p, desc)
		}
	}
	self := os.Getpid()
	for _, args := range []string{
		`{}`,
		`{"interval_ms":100}`,
		`{"pid":null,"cgroup_path":null}`,
		fmt.Sprintf(`{"pid":%d,"cgroup_path":"/"}`, self),
		fmt.Sprintf(`{"pid":%d,"cgroup_path":""}`, self),
	} {
		_, terr := tooltest.Run[hostinfo.CgroupSummary](t, context.Background(), d, "test", json.RawMessage(args))
		if terr == nil || terr.Code != tool.InvalidParams || !strings.Contains(terr.Message, "exactly one of pid and cgroup_path") {
			t.Errorf("%s: want INVALID_PARAMS naming the rule, got %+v", args, terr)
		}
	}
	for _, args := range []string{
		fmt.Sprintf(`{"pid":%d,"interval_ms":100}`, self),
		fmt.Sprintf(`{"pid":%d,"cgroup_path":null,"interval_ms":100}`, self),
		`{"cgroup_path":"/","interval_ms":100}`,
	} {
		if _, terr := tooltest.Run[hostinfo.CgroupSummary](t, context.Background(), d, "test", json.RawMessage(args)); terr != nil {
			t.Errorf("%s: %s: %s", args, terr.Code, terr.Message)
		}
	}
}
