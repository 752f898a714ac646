package app

import (
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/hostinfo"
)

// Host is the one reader of the host every toolset, doctor and the
// metrics share, rooted where [host] proc and sys say the host's procfs
// and sysfs are mounted: /proc and /sys, or elsewhere in a container.
func Host(cfg *config.Config) *hostinfo.Host {
	return hostinfo.New(hostinfo.Roots{Proc: cfg.Host.Proc, Sys: cfg.Host.Sys})
}
