package search

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/hostmcp/hostmcp/internal/store"
	"github.com/hostmcp/hostmcp/internal/testutil"
	"github.com/hostmcp/hostmcp/internal/tool"
)

// capBytes is the output cap the server gives the search tools by default.
const capBytes = 64 << 10

// storedRunner runs tools as the server does: its handles in a real store
// (SQLite in a temporary directory), a listing's lines written after the
// answer, under the default output cap. The store is what handle_read
// reads (a toolset's tests do not import another toolset).
func storedRunner(t *testing.T) (*tool.Runner, *store.Store) {
	t.Helper()
	st, err := store.Open(context.Background(), &store.Options{Path: filepath.Join(t.TempDir(), "state", "hostmcp.db")})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r := &tool.Runner{
		Handles: func(ctx context.Context, typ string, meta map[string]any, payload []byte) (string, error) {
			h, err := st.PutHandle(ctx, typ, meta, payload)
			return h.ID, err
		},
		HandlesLater: st.PutHandleLater,
		Limits:       func(tool.Spec) tool.Limits { return tool.Limits{Timeout: time.Minute, OutputCap: capBytes} },
	}
	return r, st
}

// readOnCall is the handle_read call a warning gives to read on.
var readOnCall = regexp.MustCompile(`handle_read (\{"handle":"[^"]+","offset":\d+,"unit":"lines"\})`)

// checkSizedToCap runs a listing tool whose shown items pass the output
// cap and checks that it sized them itself: the answer within the cap,
// its data whole (no data_preview, no second handle), truncated with a
// handle of every item, the shown ones the first of the handle's, and
// the handle_read call of the warning reading on at the first one not
// shown. It returns how many were shown, of how many.
func checkSizedToCap(t *testing.T, d *tool.Def, args map[string]any) (shown, total int) {
	t.Helper()
	r, st := storedRunner(t)
	raw, _ := json.Marshal(args)
	res := r.Run(context.Background(), tool.Invocation{Def: d, Args: raw})
	if res.Err != nil {
		t.Fatalf("%s", res.JSON)
	}
	if len(res.JSON) > capBytes || res.Envelope.Truncated || res.Envelope.DataPreview != nil || res.Envelope.Data == nil {
		t.Fatalf("the answer (%d bytes) was not sized to the cap of %d: %.400s", len(res.JSON), capBytes, res.JSON)
	}
	var out struct {
		Hits      []json.RawMessage `json:"hits"`
		TotalHits int               `json:"total_hits"`
		Truncated bool              `json:"truncated"`
		Handle    string            `json:"handle"`
	}
	if err := json.Unmarshal(res.Envelope.Data, &out); err != nil {
		t.Fatal(err)
	}
	if !out.Truncated || out.Handle == "" || len(out.Hits) == 0 || len(out.Hits) >= out.TotalHits {
		t.Fatalf("%d of %d hits shown, truncated %v, handle %q", len(out.Hits), out.TotalHits, out.Truncated, out.Handle)
	}
	all := handleLines(t, st, out.Handle, 0)
	if len(all) != out.TotalHits {
		t.Fatalf("the handle holds %d hits, total_hits is %d", len(all), out.TotalHits)
	}
	for i, h := range out.Hits {
		if string(h) != all[i] {
			t.Fatalf("hit %d shown is not the handle's:\n%s\n%s", i, h, all[i])
		}
	}
	var next []string
	for _, w := range res.Envelope.Warnings {
		if m := readOnCall.FindStringSubmatch(w); m != nil {
			var in struct{ Offset int }
			if err := json.Unmarshal([]byte(m[1]), &in); err != nil {
				t.Fatal(err)
			}
			if in.Offset != len(out.Hits) {
				t.Errorf("the warning reads on at %d, after %d hits shown: %s", in.Offset, len(out.Hits), w)
			}
			next = handleLines(t, st, out.Handle, in.Offset)
		}
	}
	if len(next) == 0 || next[0] != all[len(out.Hits)] {
		t.Fatalf("handle_read at the warning's offset does not give the next hit; warnings %q", res.Envelope.Warnings)
	}
	return len(out.Hits), out.TotalHits
}

// handleLines reads a handle of JSON lines from offset to its end, as
// handle_read does, window after window.
func handleLines(t *testing.T, st *store.Store, id string, offset int) []string {
	t.Helper()
	var lines []string
	for {
		sl, err := st.ReadHandle(context.Background(), id, int64(offset), 100, store.Lines)
		if err != nil {
			t.Fatalf("reading handle %s at %d: %v", id, offset, err)
		}
		if sl.Content != "" { // a JSON line holds no raw newline
			lines = append(lines, strings.Split(strings.TrimSuffix(sl.Content, "\n"), "\n")...)
		}
		if !sl.HasMore {
			return lines
		}
		offset = int(sl.NextOffset)
	}
}

// engines are both search engines; rg is required where it must be.
func engines(t *testing.T, s *Set, test func(t *testing.T, eng string)) {
	for _, eng := range []string{"native", "rg"} {
		t.Run(eng, func(t *testing.T) {
			if eng == "rg" {
				testutil.RequireBinary(t, "rg")
				if !s.exec.Available("rg") {
					t.Fatal("rg is installed but not available to the search tools")
				}
			}
			test(t, eng)
		})
	}
}

// The case in small: hits whose context lines are long (and full
// of what JSON escapes) pass the cap well before max_results. The search
// shows as many as fit, whole, and every hit is in the handle; before,
// the runner kept the whole answer as a second handle behind a preview.
func TestContentHitsSizedToTheCap(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat(`ctx "quoted" \ back `+"\u2028 \x01 é ", 12) // about 300 bytes, longer as JSON
	for f := range 20 {
		var b strings.Builder
		for i := range 10 {
			fmt.Fprintf(&b, "%s\n%s\n%s\nneedle %d %d\n%s\n%s\n%s\n", long, long, long, f, i, long, long, long)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%02d.txt", f)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := setOver(t, dir)
	engines(t, s, func(t *testing.T, eng string) {
		shown, total := checkSizedToCap(t, s.content(), map[string]any{"pattern": "needle", "max_results": 150, "engine": eng})
		if total != 200 || shown >= 150 {
			t.Errorf("%d of %d hits shown, want fewer than max_results 150 of 200", shown, total)
		}
	})
}

// search_files with many long names: fewer than max_results fit the cap.
func TestFilesNamesSizedToTheCap(t *testing.T) {
	dir := t.TempDir()
	for i := range 400 {
		name := fmt.Sprintf("%03d-%s.txt", i, strings.Repeat("long-name-", 24))
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s := setOver(t, dir)
	engines(t, s, func(t *testing.T, eng string) {
		shown, total := checkSizedToCap(t, s.files(), map[string]any{"pattern": "long-name", "max_results": 2000, "engine": eng})
		if total != 400 || shown >= 400 {
			t.Errorf("%d of %d names shown, want fewer than all 400", shown, total)
		}
	})
}
