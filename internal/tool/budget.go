package tool

import (
	"encoding/json"
)

// The output cap bounds the whole answer of a call, the envelope included:
// it is what the client receives as text, and a tool that sizes its answer
// to the cap (handle_read's pages) must be able to count on the rest.

// answerBytes is the length of env's JSON as an answer.
func answerBytes(env Envelope) int {
	js, err := MarshalJSON(env)
	if err != nil { // only reachable through a bug in Envelope itself
		panic("marshaling an envelope: " + err.Error())
	}
	return len(js)
}

// envelopeBytes is the length of a successful answer but for its data's
// JSON: the cap minus this is what data may take.
func envelopeBytes(env Envelope) int {
	env.Success = true
	env.Data = json.RawMessage("0")
	return answerBytes(env) - 1
}

// DataBudget is how many bytes the tool's data may take as JSON so that the
// answer, with the warnings added so far and those given, stays within the
// tool's output cap. Over it, the runner keeps the data as a handle and
// answers with a preview. A tool that sizes its own answer to the cap adds
// its warnings first, or passes ones at least as long as those it will add.
func (c *Call) DataBudget(moreWarnings ...string) int {
	return c.capBytes() - envelopeBytes(c.frame(append(c.Warnings(), moreWarnings...)))
}

// envelopeFixed bounds the bytes of an envelope around its data beyond its
// warnings: member names and punctuation. TestEnvelopeBound checks it.
const envelopeFixed = 48

// surelyFits reports, without encoding an envelope, whether data of n
// bytes fits the cap: the check every call makes, where DataBudget's
// encoding would cost a few microseconds for nothing.
func (c *Call) surelyFits(n int) bool {
	around := envelopeFixed
	for _, w := range c.Warnings() {
		around += JSONStringLen(w) + 1
	}
	return n+around <= c.capBytes()
}

// capBytes is the call's output cap: the runner's, or the default for a
// Call made outside it.
func (c *Call) capBytes() int {
	if c.outputCap > 0 {
		return c.outputCap
	}
	return defaultOutputCap
}

// frame is the envelope of this call without its data.
func (c *Call) frame(warnings []string) Envelope {
	return Envelope{Warnings: warnings}
}
