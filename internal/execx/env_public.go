package execx

// Env returns the environment a child of r starts with: the scrubbed base
// plus extra KEY=VALUE entries, refusing PATH and LD_* exactly as Start
// does. Toolsets that must start a program themselves, like the PTY
// sessions of repl, use it with Path so their children follow the same
// lookup and environment rules as every other child.
func (r *Runner) Env(extra []string) ([]string, error) {
	return childEnv(r.env, extra)
}
