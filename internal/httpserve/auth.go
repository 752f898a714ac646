package httpserve

import (
	"crypto/sha256"
	"crypto/subtle"
	"net/http"
	"strings"
)

// bearer requires "Authorization: Bearer <token>" when a token is set. The
// compare is constant-time over digests, so neither the token's content nor
// its length leaks through timing.
func bearer(token string) func(http.Handler) http.Handler {
	want := sha256.Sum256([]byte(token))
	return func(next http.Handler) http.Handler {
		if token == "" {
			return next
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			sum := sha256.Sum256([]byte(bearerToken(r)))
			if subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
				w.Header().Set("WWW-Authenticate", `Bearer realm="hostmcp"`)
				http.Error(w, "missing or wrong bearer token", http.StatusUnauthorized)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// bearerToken is the token of r's "Authorization: Bearer" header, or "".
func bearerToken(r *http.Request) string {
	got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return ""
	}
	return strings.TrimSpace(got)
}
