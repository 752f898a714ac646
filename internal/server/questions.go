package server

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/hostmcp/hostmcp/internal/tool"
)

// questions signs the state a 2026-07-28 client carries back with a
// person's answer (requestState), so that an answer counts only if it is
// to this server's own question, about the very call made again (same
// tool, same arguments, same client), within the answer timeout, and
// once. Anything else is not an answer: the call asks afresh. The key is
// made at start-up and never leaves the process, so a restart forgets
// every question.
type questions struct {
	key [32]byte
	ttl time.Duration
	now func() time.Time

	mu   sync.Mutex
	used map[string]time.Time // nonces answered, until they expire
}

// questionState is what requestState holds, signed; the client sees it
// (it is only base64), and the summary is what it showed the person.
type questionState struct {
	Tool    string `json:"tool"`
	Args    string `json:"args"`   // digest of the arguments, canonical JSON
	Client  string `json:"client"` // digest of the client's id
	State   string `json:"state"`
	Summary string `json:"summary"`
	Expires int64  `json:"exp"` // Unix seconds
	Nonce   string `json:"nonce"`
}

func newQuestions(ttl time.Duration) *questions {
	q := &questions{ttl: ttl, now: time.Now, used: map[string]time.Time{}}
	if _, err := rand.Read(q.key[:]); err != nil {
		panic("reading random bytes: " + err.Error()) // crypto/rand does not fail on Linux
	}
	return q
}

// issue signs the state of question qn, asked of client about a call of
// name with args.
func (q *questions) issue(name string, args json.RawMessage, client string, qn *tool.Question) string {
	var nonce [16]byte
	_, _ = rand.Read(nonce[:])
	st := questionState{Tool: name, Args: argsDigest(args), Client: digest(client), State: qn.State, Summary: qn.Summary,
		Expires: q.now().Add(q.ttl).Unix(), Nonce: hex.EncodeToString(nonce[:])}
	body, _ := json.Marshal(st)
	return base64.RawURLEncoding.EncodeToString(body) + "." + base64.RawURLEncoding.EncodeToString(q.sign(body))
}

// answer is the person's answer that a call made again carries, or nil
// when it carries none this server can trust for this call.
func (q *questions) answer(name string, args json.RawMessage, client, state string, responses mcp.InputResponseMap) *tool.Answer {
	res, ok := responses[confirmInput].(*mcp.ElicitResult)
	if !ok || res == nil {
		return nil
	}
	b64, sig, ok := strings.Cut(state, ".")
	body, err1 := base64.RawURLEncoding.DecodeString(b64)
	mac, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil || !hmac.Equal(mac, q.sign(body)) {
		return nil
	}
	var st questionState
	if json.Unmarshal(body, &st) != nil || st.Tool != name || st.Args != argsDigest(args) || st.Client != digest(client) {
		return nil
	}
	now := q.now()
	expires := time.Unix(st.Expires, 0)
	if !now.Before(expires) || !q.use(st.Nonce, expires, now) {
		return nil
	}
	return &tool.Answer{Action: res.Action, State: st.State, Summary: st.Summary}
}

// use marks nonce answered, and reports false if it was already.
func (q *questions) use(nonce string, expires, now time.Time) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	for n, exp := range q.used {
		if !now.Before(exp) {
			delete(q.used, n)
		}
	}
	if _, seen := q.used[nonce]; seen {
		return false
	}
	q.used[nonce] = expires
	return true
}

func (q *questions) sign(body []byte) []byte {
	m := hmac.New(sha256.New, q.key[:])
	m.Write(body)
	return m.Sum(nil)
}

// argsDigest digests arguments in canonical form (keys sorted, no
// spacing), so the same arguments marshalled again compare equal.
func argsDigest(args json.RawMessage) string {
	var v any
	if len(args) > 0 && json.Unmarshal(args, &v) != nil {
		return digest(string(args))
	}
	if v == nil {
		v = map[string]any{}
	}
	canon, _ := json.Marshal(v)
	return digest(string(canon))
}

func digest(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
