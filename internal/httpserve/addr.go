package httpserve

import (
	"fmt"
	"net"
	"net/netip"
)

// CheckAddr refuses to listen beyond loopback without a token: an
// unauthenticated MCP server on a network interface would hand the host to
// anyone who can reach the port.
func CheckAddr(addr, token string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("HTTP address %q must be host:port, e.g. 127.0.0.1:8765: %w", addr, err)
	}
	if token != "" || IsLoopback(host) {
		return nil
	}
	return fmt.Errorf("refusing to serve on %s without a token: set HOSTMCP_TOKEN or --token-file, or bind 127.0.0.1", addr)
}

// IsLoopback reports whether host names only this machine. An empty host
// (all interfaces) is not loopback.
func IsLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}
