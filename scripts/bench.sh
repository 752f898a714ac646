#!/usr/bin/env bash
# Runs the client-side benchmarks (bench/) several times and prints medians
# with benchstat, so figures and their baselines come from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-6}
out=$(mktemp)
go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-20x}" -count "$count" ./bench/ | tee "$out"
if ! command -v benchstat >/dev/null; then
	go install golang.org/x/perf/cmd/benchstat@v0.0.0-20250515181824-8b7cdd7b7ac6
fi
"$(go env GOPATH)/bin/benchstat" "$out"
