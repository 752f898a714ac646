package fleet_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"
)

// startProxy serves /hosts/{address}/rest by passing it on to
// http://{address}/rest, as the Kubernetes API server's proxy passes
// /api/v1/.../proxy/rest on; seen returns the last path it was asked.
func startProxy(t *testing.T) (base string, seen func() string) {
	var mu sync.Mutex
	last := ""
	rp := &httputil.ReverseProxy{Rewrite: func(r *httputil.ProxyRequest) {
		rest := strings.TrimPrefix(r.In.URL.Path, "/hosts/")
		addr, path, _ := strings.Cut(rest, "/")
		r.SetURL(&url.URL{Scheme: "http", Host: addr})
		r.Out.URL.Path = "/" + path
		r.Out.Host = addr
	}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		last = r.URL.Path
		mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts.URL, func() string {
		mu.Lock()
		defer mu.Unlock()
		return last
	}
}
