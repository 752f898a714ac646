package app

import "runtime/debug"

// PauseCollection turns the garbage collector off for start-up, and
// returns the setting to give ReturnStartupMemory. Building the server
// allocates a few MiB that are nearly all garbage once it is built; with
// the default setting the runtime collected three times meanwhile, about a
// quarter of the CPU time before the initialize answer. The heap peaks a
// few MiB higher instead, and is given back as soon as the tools are
// registered. A memory limit (GOMEMLIMIT) is still enforced meanwhile.
func PauseCollection() (gcPercent int) { return debug.SetGCPercent(-1) }

// ReturnStartupMemory turns the collector back on at gcPercent, as it was
// (GOGC), and gives the system back, once, the heap that building the
// server used and no longer needs: little of it stays live, and the
// runtime's scavenger would otherwise return the rest only slowly, so an
// idle server would hold it for minutes. It runs when the tools are
// registered (in the background, behind the initialize answer), costs one
// collection, and changes nothing a call sees.
func (a *App) ReturnStartupMemory(gcPercent int) {
	go func() {
		<-a.Server.ToolsReady()
		debug.SetGCPercent(gcPercent)
		debug.FreeOSMemory()
	}()
}
