package tool

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// dataPlaceholder stands for data while the rest of an envelope is
// encoded. `,"data":0` cannot occur before the data member: the only
// field before it is success, a boolean.
var dataPlaceholder = []byte(`,"data":0`)

// JSON encodes the envelope as MarshalJSON does, without encoding data
// again: data is already compact JSON (setData made it with MarshalJSON),
// and re-encoding it meant a second pass over every byte of every answer,
// most of which is data (a file's content, a listing).
func (env Envelope) JSON() ([]byte, error) {
	if len(env.Data) == 0 {
		return MarshalJSON(env)
	}
	data := env.Data
	env.Data = json.RawMessage("0")
	rest, err := MarshalJSON(env)
	if err != nil {
		return nil, err
	}
	i := bytes.Index(rest, dataPlaceholder)
	if i < 0 { // only reachable through a change to Envelope's fields
		return nil, fmt.Errorf("encoding the envelope: no data member in %.200s", rest)
	}
	at := i + len(dataPlaceholder) - 1
	out := make([]byte, 0, len(rest)-1+len(data))
	out = append(out, rest[:at]...)
	out = append(out, data...)
	return append(out, rest[at+1:]...), nil
}
