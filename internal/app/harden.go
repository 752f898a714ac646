package app

import (
	"log/slog"

	"github.com/hostmcp/hostmcp/internal/execx"
)

// harden protects the server from every program it will run (see
// execx.Harden), first thing at start-up, before any child exists, and
// whichever toolsets are served: a reader looks for what is done to the
// whole process here, not in a toolset's constructor. It logs the outcome
// once. A server it could not harden still serves, but the repl toolset
// refuses sessions (execx.Hardened).
func harden(log *slog.Logger) {
	if err := execx.Harden(); err != nil {
		log.Warn("the server could not be hardened against the programs it runs; interactive sessions are refused", "err", err)
		return
	}
	log.Info("hardened against the programs it runs: not dumpable (no core dumps, no ptrace or /proc/PID/mem by its children), inherited descriptors close-on-exec")
}
