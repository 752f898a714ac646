package health

// Level is a status word as a number, 0 healthy, 1 warning, 2 critical,
// the order verdicts are ranked in: what /metrics exports, so a PromQL
// max() or sort picks the worst.
func Level(status string) int { return rank(status) }
