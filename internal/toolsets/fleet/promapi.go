package fleet

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
)

// promAPI asks the few endpoints of Prometheus's HTTP API fleet needs
// (/api/v1/query, /api/v1/query_range, /api/v1/targets), on net/http and
// encoding/json alone. Prometheus's own API client would bring
// json-iterator and reflect2 into every hostmcp, fleet or not: their code,
// and their package inits run at every start-up.
type promAPI struct {
	base   *url.URL // prometheus_url; its path prefixes every endpoint
	client *http.Client
}

// promError is an answer of Prometheus that is an error: the API's own
// errorType and error when it gave them, else made from the HTTP status,
// as Prometheus's client names them (bad_data, execution, client_error,
// server_error, bad_response).
type promError struct{ Type, Msg string }

func (e *promError) Error() string { return e.Type + ": " + e.Msg }

// promEnvelope is every answer of the API.
type promEnvelope struct {
	Status    string          `json:"status"`
	Data      json.RawMessage `json:"data"`
	ErrorType string          `json:"errorType"`
	Error     string          `json:"error"`
}

// promResult is the data of a query.
type promResult struct {
	ResultType string          `json:"resultType"`
	Result     json.RawMessage `json:"result"`
}

// query runs PromQL through endpoint (query or query_range) with args,
// and decodes a result of type want into into.
func (a *promAPI) query(ctx context.Context, endpoint string, args url.Values, want string, into any) (got string, err error) {
	var res promResult
	if err := a.form(ctx, endpoint, args, &res); err != nil {
		return "", err
	}
	if res.ResultType != want {
		return res.ResultType, nil
	}
	if err := json.Unmarshal(res.Result, into); err != nil {
		return "", &promError{Type: "bad_response", Msg: err.Error()}
	}
	return want, nil
}

// form POSTs args as a form, which keeps long queries out of the URL, and
// asks again with GET when Prometheus (or a proxy before it) refuses the
// POST, as Prometheus's client does.
func (a *promAPI) form(ctx context.Context, endpoint string, args url.Values, into any) error {
	encoded := args.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.url(endpoint, ""), strings.NewReader(encoded))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header["Idempotency-Key"] = nil // a query changes nothing: the transport may retry it
	status, err := a.do(req, into)
	switch status {
	case http.StatusForbidden, http.StatusMethodNotAllowed, http.StatusNotImplemented:
		if req, err = http.NewRequestWithContext(ctx, http.MethodGet, a.url(endpoint, encoded), nil); err != nil {
			return err
		}
		_, err = a.do(req, into)
	}
	return err
}

// get asks endpoint without arguments.
func (a *promAPI) get(ctx context.Context, endpoint string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.url(endpoint, ""), nil)
	if err != nil {
		return err
	}
	_, err = a.do(req, into)
	return err
}

func (a *promAPI) url(endpoint, rawQuery string) string {
	u := *a.base
	u.Path = path.Join(u.Path, endpoint)
	u.RawQuery = rawQuery
	return u.String()
}

// do sends req and decodes the envelope's data into into; it returns the
// HTTP status when there was one. The body is read whole: hostTransport
// bounds it.
func (a *promAPI) do(req *http.Request, into any) (int, error) {
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		if ctxErr := req.Context().Err(); ctxErr != nil {
			return resp.StatusCode, ctxErr // the runner reports the call's timeout or cancellation
		}
		return resp.StatusCode, err
	}
	code := resp.StatusCode
	var env promEnvelope
	switch {
	case code/100 == 2:
		if err := json.Unmarshal(body, &env); err != nil {
			return code, &promError{Type: "bad_response", Msg: err.Error()}
		}
		if env.Status == "error" {
			return code, &promError{Type: env.ErrorType, Msg: env.Error}
		}
		if err := json.Unmarshal(env.Data, into); err != nil {
			return code, &promError{Type: "bad_response", Msg: err.Error()}
		}
		return code, nil
	case code == http.StatusBadRequest || code == http.StatusUnprocessableEntity:
		// The API's own errors (a query it refuses) come with these.
		if json.Unmarshal(body, &env) != nil {
			return code, statusError(code)
		}
		if env.Status == "success" {
			return code, &promError{Type: "bad_response", Msg: "inconsistent body for response code"}
		}
		if env.ErrorType == "" {
			env.ErrorType = "client_error"
		}
		if env.Error == "" {
			env.Error = fmt.Sprintf("client error: %d", code)
		}
		return code, &promError{Type: env.ErrorType, Msg: env.Error}
	}
	return code, statusError(code)
}

// statusError names an HTTP status that is not an answer of the API.
func statusError(code int) *promError {
	switch code / 100 {
	case 3:
		return &promError{Type: "bad_response", Msg: fmt.Sprintf("HTTP %d %s: redirects are not followed", code, http.StatusText(code))}
	case 4:
		return &promError{Type: "client_error", Msg: fmt.Sprintf("client error: %d", code)}
	case 5:
		return &promError{Type: "server_error", Msg: fmt.Sprintf("server error: %d", code)}
	}
	return &promError{Type: "bad_response", Msg: fmt.Sprintf("bad response code %d", code)}
}

// promTime is a time as the API takes it: Unix seconds, with a fraction.
func promTime(t time.Time) string {
	return strconv.FormatFloat(float64(t.Unix())+float64(t.Nanosecond())/1e9, 'f', -1, 64)
}
