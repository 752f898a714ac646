package app

import "time"

// sweepEvery is how often expired handles are deleted; reads check expiry
// themselves, so this only bounds disk use.
const sweepEvery = time.Minute
