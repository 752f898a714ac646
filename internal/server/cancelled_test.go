package server

import (
	"fmt"
	"testing"
)

func TestCancelledResponsesAreDropped(t *testing.T) {
	var c cancelledCalls
	resp := func(id string) []byte {
		return []byte(`{"jsonrpc":"2.0","id":` + id + `,"result":{"content":[]}}` + "\n")
	}

	if c.drop(resp("7")) {
		t.Fatal("dropped a response with nothing cancelled")
	}
	c.began([]byte("7"))
	c.cancel([]byte(`{"requestId":7,"reason":"gave up"}`))
	c.cancel([]byte(`{"requestId":"abc"}`))
	for _, tc := range []struct {
		name string
		msg  []byte
		want bool
	}{
		{"another id", resp("8"), false},
		{"a string id that reads as the number", resp(`"7"`), false},
		{"a request of the server's with the id", []byte(`{"jsonrpc":"2.0","id":7,"method":"roots/list"}`), false},
		{"a notification", []byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":7}}`), false},
		{"the cancelled response", resp("7"), true},
		{"its id again, once dropped", resp("7"), false},
		{"an error response, members in another order", []byte(`{"error":{"code":-32603,"message":"x"},"id":"abc","jsonrpc":"2.0"}`), true},
	} {
		if got := c.drop(tc.msg); got != tc.want {
			t.Errorf("%s: drop = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A cancellation that came after the response stays, but a new request
// under the same id is answered.
func TestReusedIDIsAnswered(t *testing.T) {
	var c cancelledCalls
	c.cancel([]byte(`{"requestId":3}`))
	c.began([]byte("3"))
	if c.drop([]byte(`{"jsonrpc":"2.0","id":3,"result":{}}`)) {
		t.Error("the answer to a new request under a cancelled id was dropped")
	}
}

func TestCancelledIsBounded(t *testing.T) {
	var c cancelledCalls
	for i := range maxCancelled + 10 {
		c.cancel(fmt.Appendf(nil, `{"requestId":%d}`, i))
	}
	if len(c.ids) != maxCancelled || len(c.order) != maxCancelled {
		t.Fatalf("kept %d ids (%d in order), want %d", len(c.ids), len(c.order), maxCancelled)
	}
	if c.drop([]byte(`{"jsonrpc":"2.0","id":0,"result":{}}`)) {
		t.Error("the oldest cancellation was kept past the bound")
	}
	if !c.drop(fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"result":{}}`, maxCancelled+9)) {
		t.Error("the newest cancellation was lost")
	}
}

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		raw  string
		want requestID
		ok   bool
	}{
		{"7", requestID{num: 7}, true},
		{" 7.0 ", requestID{num: 7}, true},
		{"7e0", requestID{num: 7}, true},
		{`"7"`, requestID{str: "7", isStr: true}, true},
		{`"\u0037"`, requestID{str: "7", isStr: true}, true},
		{"7.5", requestID{}, false},
		{"null", requestID{}, false},
		{"{}", requestID{}, false},
		{"", requestID{}, false},
	} {
		got, ok := parseID([]byte(tc.raw))
		if got != tc.want || ok != tc.ok {
			t.Errorf("parseID(%s) = %+v %v, want %+v %v", tc.raw, got, ok, tc.want, tc.ok)
		}
	}
}
