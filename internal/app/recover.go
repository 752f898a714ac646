package app

import (
	"log/slog"

	"github.com/hostmcp/hostmcp/internal/config"
	"github.com/hostmcp/hostmcp/internal/fsroot"
)

// recoverEdits finishes or undoes the multi-file edits (fs_apply_diff) a
// crash interrupted, before any tool is served: no file tool may see a diff
// half-applied. Each one is logged with its files and direction. One that
// cannot be recovered, or whose journal names paths outside the configured
// roots, is logged and left for a later start.
func recoverEdits(cfg *config.Config, roots *fsroot.Set, log *slog.Logger) {
	for _, r := range fsroot.NewJournal(cfg.StateDir).Recover(roots) {
		args := []any{"direction", r.Action, "files", r.Files, "journal", r.Journal}
		if r.Reason != "" {
			args = append(args, "reason", r.Reason)
		}
		switch r.Action {
		case fsroot.RolledForward, fsroot.RolledBack:
			log.Warn("recovered an interrupted fs_apply_diff", args...)
		case fsroot.Ignored:
			log.Warn("ignored the journal of an interrupted fs_apply_diff; it is kept for a start with its roots", args...)
		default:
			log.Error("could not recover an interrupted fs_apply_diff; the next start tries again", args...)
		}
	}
}
