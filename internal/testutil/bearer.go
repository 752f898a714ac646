package testutil

import "net/http"

// Bearer is an http.RoundTripper that presents a bearer token on every
// request, as an MCP client configured with the token does.
type Bearer string

// RoundTrip sends a copy of r with the Authorization header set.
func (b Bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+string(b))
	return http.DefaultTransport.RoundTrip(r)
}
