package hostinfo

// RunQueue is the reading's runnable and I/O-blocked task counts, less the
// task that read them, as [Host.RunQueue] gives them: a sampler that keeps
// readings averages them over its window without reading /proc/stat again.
func (c Counters) RunQueue() RunQueueSample {
	return RunQueueSample{Running: max(0, c.stat.ProcsRunning-1), Blocked: c.stat.ProcsBlocked}
}
