package config

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// minTokenLen keeps out tokens short enough to guess or to be a
// placeholder left in by mistake.
const minTokenLen = 16

// maxTokenFile bounds what is read from the token file; a token is short.
const maxTokenFile = 4 << 10

// Token returns the HTTP bearer token from HOSTMCP_TOKEN or
// http.token_file. It never comes from a flag (visible in ps) or the
// config file (often world-readable and checked in). Both set is an error,
// since which one wins would be a guess; neither returns "" and httpserve
// decides whether the address may go without one.
func (c *Config) Token(env func(string) string) (string, error) {
	fromEnv := ""
	if env != nil {
		fromEnv = env(EnvToken)
	}
	switch {
	case fromEnv != "" && c.HTTP.TokenFile != "":
		return "", fmt.Errorf("both %s and http.token_file (%s) are set; use one", EnvToken, c.HTTP.TokenFile)
	case fromEnv != "":
		return checkToken(fromEnv, EnvToken)
	case c.HTTP.TokenFile != "":
		raw, err := readTokenFile(c.HTTP.TokenFile)
		if err != nil {
			return "", err
		}
		return checkToken(raw, "token file "+c.HTTP.TokenFile)
	}
	return "", nil
}

// readTokenFile reads a token file that only its owner can read; the mode
// is checked on the opened file, so it is the file that is read.
func readTokenFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("token file %s: not a regular file", path)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("token file %s has mode %04o: other users can read or change it; run chmod 600 %s",
			path, perm, path)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("reading the token file: %w", err)
	}
	if len(b) > maxTokenFile {
		return "", fmt.Errorf("token file %s: larger than %d bytes; it should hold only the token", path, maxTokenFile)
	}
	return string(b), nil
}

// checkToken trims the token and refuses one too short to be secret.
func checkToken(raw, from string) (string, error) {
	tok := strings.TrimSpace(raw)
	switch {
	case tok == "":
		return "", fmt.Errorf("%s: the token is empty", from)
	case len(tok) < minTokenLen:
		return "", fmt.Errorf("%s: the token has %d characters; use at least %d (e.g. openssl rand -hex 32)", from, len(tok), minTokenLen)
	case strings.ContainsAny(tok, " \t\r\n"):
		return "", errors.New(from + ": the token contains whitespace; it must be one word")
	}
	return tok, nil
}
