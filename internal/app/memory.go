package app

import "runtime/debug"

// ReturnStartupMemory gives the system back, once, the heap that building
// the server used and no longer needs: inferring and marshalling every
// tool's schemas peaks at a few MiB of which little stays live, and the
// runtime's scavenger would otherwise return the rest only slowly, so an
// idle server would hold it for minutes. It runs when the tools are
// registered (in the background, behind the initialize answer), costs one
// garbage collection, and changes nothing a call sees.
func (a *App) ReturnStartupMemory() {
	go func() {
		<-a.Server.ToolsReady()
		debug.FreeOSMemory()
	}()
}
