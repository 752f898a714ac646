//go:build !amd64 && !arm64

package bpfprog

import (
	"context"
	"errors"
	"time"

	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// DNSLatency needs the uprobe program, built for amd64 and arm64 only (it
// reads arguments from the architecture's registers).
func DNSLatency(ctx context.Context, host *hostinfo.Host, d time.Duration, pid uint32, progress Progress, onLookup func(DNSLookup)) (DNSResult, error) {
	return DNSResult{}, errors.New("DNS tracing is built for amd64 and arm64 only")
}
