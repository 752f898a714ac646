#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a short time each (default 10s),
# so CI exercises the parsers beyond their seed corpora.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-10s}
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
	for fz in $targets; do
		echo "fuzz: $pkg $fz ($budget)"
		go test -run '^$' -fuzz "^${fz}\$" -fuzztime "$budget" "$pkg"
	done
done
