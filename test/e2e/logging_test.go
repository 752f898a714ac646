package e2e

import (
	"encoding/json"
	"strings"
	"testing"
)

// The server sends no log messages, so it declares no logging capability;
// logging/setLevel still takes the protocol's levels, and refuses any other
// with -32602, quoting it clipped.
func TestLoggingLevels(t *testing.T) {
	s := startRaw(t, newEnv(t, ""))
	var init struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := json.Unmarshal(s.initResult, &init); err != nil {
		t.Fatal(err)
	}
	if _, ok := init.Capabilities["logging"]; ok {
		t.Errorf("logging declared, but no log message is ever sent: %s", s.initResult)
	}
	if _, ok := init.Capabilities["tools"]; !ok {
		t.Errorf("tools not declared: %s", s.initResult)
	}

	long := strings.Repeat("x", 300)
	for _, tc := range []struct {
		id, level string
		wantCode  int64 // 0: accepted
		wantText  string
	}{
		{"2", "bogus", -32602, `"bogus"`},
		{"3", long, -32602, "(300 bytes)"},
		{"4", "WARNING", -32602, "warning"},
		{"5", "warning", 0, ""},
		{"6", "debug", 0, ""},
	} {
		s.send(`{"jsonrpc":"2.0","id":` + tc.id + `,"method":"logging/setLevel","params":{"level":"` + tc.level + `"}}`)
		r := s.next()
		if string(r.ID) != tc.id {
			t.Fatalf("want the answer to %s, got %s", tc.id, r.line)
		}
		switch {
		case tc.wantCode == 0 && (r.Error != nil || r.Result == nil):
			t.Errorf("level %q refused: %s", tc.level, r.line)
		case tc.wantCode != 0 && (r.Error == nil || r.Error.Code != tc.wantCode || !strings.Contains(r.Error.Message, tc.wantText)):
			t.Errorf("level %.20q: got %s, want error %d saying %s", tc.level, r.line, tc.wantCode, tc.wantText)
		case tc.wantCode != 0 && strings.Contains(r.Error.Message, long):
			t.Errorf("the error echoes the whole 300-byte level: %s", r.line)
		}
	}
}
