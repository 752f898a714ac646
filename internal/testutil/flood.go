package testutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Flood is one wave of concurrent tool calls posted as raw JSON-RPC to a
// `hostmcp serve --http` endpoint, as a runaway client would send them. Raw
// posts rather than an SDK client: the wave must see every answer, HTTP 429
// included, and not pay for an initialize per call.
type Flood struct {
	URL   string // the /mcp endpoint
	Token string
	Calls int    // calls released at once, one per goroutine
	Tool  string // the tool every call names
	Args  any    // its arguments
	// PingEvery is the pause between pings sent on a connection of their
	// own while the wave is answered; zero sends none.
	PingEvery time.Duration
	// ProbeTool, when set, is called with ProbeArgs before each ping, on
	// the ping's connection: a cheap call that must stay answered.
	ProbeTool string
	ProbeArgs any
	// Watch, when set, samples the server's children and memory meanwhile.
	Watch *ProcWatch
}

// Answer is how one call of the wave ended.
type Answer struct {
	Status     int           // HTTP status
	Code       string        // the envelope's error code; "" on success or when the HTTP layer refused
	RetryAfter time.Duration // error.retry_after_ms, or the Retry-After header of a 429
	Latency    time.Duration
	Err        string // a transport failure or an answer that did not parse
}

// FloodResult is what a wave measured.
type FloodResult struct {
	Answers []Answer
	Wall    time.Duration // first call sent to last answer read
	Pings   []time.Duration
	// PingFailures lists pings that were not answered with a pong.
	PingFailures []string
	// Probes are the answers to ProbeTool's calls.
	Probes []Answer
}

// Run releases the wave and waits for every answer.
func (f *Flood) Run() FloodResult {
	tr := &http.Transport{MaxIdleConnsPerHost: f.Calls, MaxIdleConns: f.Calls}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: 5 * time.Minute}
	body := callBody(f.Tool, f.Args)
	var res FloodResult
	stopPing := make(chan struct{})
	pingDone := make(chan struct{})
	go func() {
		defer close(pingDone)
		if f.PingEvery > 0 {
			res.Pings, res.PingFailures, res.Probes = f.ping(stopPing)
		}
	}()
	if f.Watch != nil {
		f.Watch.Start()
	}
	res.Answers = make([]Answer, f.Calls)
	release := make(chan struct{})
	var wg sync.WaitGroup
	for i := range f.Calls {
		wg.Go(func() {
			<-release
			res.Answers[i] = f.post(client, body)
		})
	}
	start := time.Now()
	close(release)
	wg.Wait()
	res.Wall = time.Since(start)
	close(stopPing)
	<-pingDone
	if f.Watch != nil {
		f.Watch.Stop()
	}
	return res
}

func (f *Flood) post(client *http.Client, body []byte) Answer {
	start := time.Now()
	resp, err := client.Do(f.request(body))
	if err != nil {
		return Answer{Err: err.Error(), Latency: time.Since(start)}
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(resp.Body)
	a := Answer{Status: resp.StatusCode, Latency: time.Since(start)}
	if err != nil {
		a.Err = err.Error()
		return a
	}
	if resp.StatusCode != http.StatusOK {
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil {
			a.RetryAfter = time.Duration(s) * time.Second
		}
		return a
	}
	var msg struct {
		Result *struct {
			StructuredContent struct {
				Success bool `json:"success"`
				Error   *struct {
					Code         string `json:"code"`
					RetryAfterMS int64  `json:"retry_after_ms"`
				} `json:"error"`
			} `json:"structuredContent"`
		} `json:"result"`
		Error *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(sseData(raw), &msg); err != nil {
		a.Err = fmt.Sprintf("answer does not parse: %v: %.300s", err, raw)
		return a
	}
	switch {
	case msg.Error != nil:
		a.Err = "JSON-RPC error: " + msg.Error.Message
	case msg.Result == nil:
		a.Err = fmt.Sprintf("no result: %.300s", raw)
	case msg.Result.StructuredContent.Error != nil:
		e := msg.Result.StructuredContent.Error
		a.Code, a.RetryAfter = e.Code, time.Duration(e.RetryAfterMS)*time.Millisecond
	case !msg.Result.StructuredContent.Success:
		a.Err = fmt.Sprintf("neither success nor error: %.300s", raw)
	}
	return a
}

func (f *Flood) request(body []byte) *http.Request {
	req, err := http.NewRequest("POST", f.URL, bytes.NewReader(body))
	if err != nil {
		panic(err) // a malformed URL: a bug in the test
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	// As a client does after initialize: without the header a stateless
	// server takes the request for 2025-03-26, which has no
	// structuredContent, the part these answers are judged by.
	req.Header.Set("Mcp-Protocol-Version", "2025-06-18")
	if f.Token != "" {
		req.Header.Set("Authorization", "Bearer "+f.Token)
	}
	return req
}

// callBody is a tools/call request for tool with args.
func callBody(tool string, args any) []byte {
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
		"params": map[string]any{"name": tool, "arguments": args}})
	if err != nil {
		panic(err) // the caller's args do not marshal: a bug in the test
	}
	return body
}

// ping sends a ping every PingEvery on a client of its own until stop is
// closed, and times each round trip; each is followed by the probe call,
// if any.
func (f *Flood) ping(stop <-chan struct{}) (took []time.Duration, failures []string, probes []Answer) {
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	client := &http.Client{Transport: tr, Timeout: time.Minute}
	body := []byte(`{"jsonrpc":"2.0","id":7,"method":"ping"}`)
	for {
		select {
		case <-stop:
			return took, failures, probes
		case <-time.After(f.PingEvery):
		}
		if f.ProbeTool != "" {
			probes = append(probes, f.post(client, callBody(f.ProbeTool, f.ProbeArgs)))
		}
		start := time.Now()
		resp, err := client.Do(f.request(body))
		if err != nil {
			failures = append(failures, err.Error())
			continue
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		took = append(took, time.Since(start))
		if resp.StatusCode != http.StatusOK || !bytes.Contains(sseData(raw), []byte(`"result":{}`)) {
			failures = append(failures, fmt.Sprintf("HTTP %d: %.200s", resp.StatusCode, raw))
		}
	}
}

// sseData is the data of the first event of a text/event-stream answer, or
// the body itself when it is plain JSON.
func sseData(raw []byte) []byte {
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64<<10), 16<<20)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			return []byte(d)
		}
	}
	return raw
}

// Percentile is the p-th percentile (0 to 100) of d, nearest rank; 0 for
// none.
func Percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	i := int(float64(len(s))*p/100+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}
