package app

import (
	"log/slog"

	"github.com/hostmcp/hostmcp/internal/catalog"
	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/fsroot"
	"github.com/hostmcp/hostmcp/internal/server"
)

// ToolList builds the server Open builds, to list its tools and run none
// (`hostmcp tools`): the same toolsets, the same choice among them and the
// same checks of the configuration, but no state store, no work
// directories, no recovered edits, no opened roots and no resolved
// programs, so that listing leaves the state directory as it found it.
// What start-up warns of about the roots it still logs. The server's Call
// is not to be used: it has no store for handles or records.
func ToolList(cfg *config.Config, version string, log *slog.Logger) (*server.Server, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	for _, w := range fsroot.Warnings(cfg.Roots, fsroot.ProtectedHardlinks()) {
		log.Warn(w)
	}
	return server.New(server.Options{
		Config:   cfg,
		Version:  version,
		Logger:   log,
		Toolsets: catalog.Toolsets(&catalog.Deps{Config: cfg, Host: Host(cfg)}),
	})
}
