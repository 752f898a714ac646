package files

import (
	stdnet "net"
)

// net makes a Unix socket file for the special-file cases.
type net struct{}

func (net) socket(path string) (stdnet.Listener, error) { return stdnet.Listen("unix", path) }
