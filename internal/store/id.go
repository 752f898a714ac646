package store

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"time"
)

// idPattern is the only shape of handle ID the store accepts on read, so
// whatever an agent sends as an ID never reaches SQL unless it could be one.
var idPattern = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^H_[a-z0-9]{1,12}_[0-9]{8}T[0-9]{6}Z_[0-9a-f]{8}$`) })

// idTimeLayout is the timestamp inside an ID: UTC, second precision, so an
// operator can tell a handle's age at a glance.
const idTimeLayout = "20060102T150405Z"

// newID returns an ID such as H_fsread_20261122T024500Z_9f3a1c2b. The
// random part comes from crypto/rand: IDs are capabilities to read a
// stored result, so they must not be guessable from the time alone.
func newID(typ string, now time.Time) (string, error) {
	var r [4]byte
	if _, err := rand.Read(r[:]); err != nil {
		return "", fmt.Errorf("generating a handle id: %w", err)
	}
	return "H_" + sanitizeType(typ) + "_" + now.UTC().Format(idTimeLayout) + "_" + hex.EncodeToString(r[:]), nil
}

// sanitizeType keeps the ID's type part to [a-z0-9]{1,12}: "fs_read" becomes
// "fsread", and a type with nothing usable becomes "data".
func sanitizeType(typ string) string {
	var b strings.Builder
	for _, c := range strings.ToLower(typ) {
		if b.Len() == 12 {
			break
		}
		if ('a' <= c && c <= 'z') || ('0' <= c && c <= '9') {
			b.WriteRune(c)
		}
	}
	if b.Len() == 0 {
		return "data"
	}
	return b.String()
}

// validID reports whether id has the shape newID produces.
func validID(id string) bool {
	return idPattern().MatchString(id)
}
