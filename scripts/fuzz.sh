#!/usr/bin/env bash
# Runs every Go fuzz target in the module for a short time each (default 10s),
# so CI exercises the parsers beyond their seed corpora.
#
# A real finding makes go test write the failing input under testdata/fuzz and
# say so; that fails at once. A failure without one is the fuzzing engine
# itself giving up on a slow worker when the machine is loaded ("context
# deadline exceeded" at the end of -fuzztime, seen about once in 200 target
# runs here): that target is run again, up to three tries in all.
set -euo pipefail
cd "$(dirname "$0")/.."
budget=${1:-10s}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
for pkg in $(go list ./...); do
	dir=$(go list -f '{{.Dir}}' "$pkg")
	targets=$(grep -ho '^func Fuzz[A-Za-z0-9_]*' "$dir"/*_test.go 2>/dev/null | sed 's/^func //' | sort -u || true)
	for fz in $targets; do
		for try in 1 2 3; do
			echo "fuzz: $pkg $fz ($budget, try $try)"
			if go test -run '^$' -fuzz "^${fz}\$" -fuzztime "$budget" "$pkg" >"$log" 2>&1; then
				tail -n 3 "$log"
				break
			fi
			cat "$log"
			if grep -q 'Failing input written to' "$log" || [ "$try" = 3 ]; then
				exit 1
			fi
		done
	done
done
