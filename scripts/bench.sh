#!/usr/bin/env bash
# Runs the client-side benchmarks (bench/) several times and prints medians
# with benchstat, so figures and their baselines come from one run.
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-6}
out=$(mktemp)
go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-20x}" -count "$count" ./bench/ | tee "$out"
if ! command -v benchstat >/dev/null; then
	go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
fi
"$(go env GOPATH)/bin/benchstat" "$out"
