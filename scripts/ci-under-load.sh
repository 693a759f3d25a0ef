#!/usr/bin/env bash
# CI as a new contributor's busy machine runs it: a fresh clone of HEAD, `.ci/run` in it, while
# BUSY_CORES processes (default 1) keep a core each busy. Prints each run's time and result.
# Usage: scripts/ci-under-load.sh [runs]   (BUSY_CORES=0 for a quiet run)
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-1}
busy=${BUSY_CORES:-1}
head=$(git rev-parse --short HEAD)
failed=0
for run in $(seq 1 "$runs"); do
	# Beside this checkout, as CI's clone is: the tests read ../shared/corpus from there.
	clone=$(mktemp -d "$(dirname "$PWD")/telematics-ci-XXXXXX")
	git clone -q . "$clone"
	pids=()
	for _ in $(seq 1 "$busy"); do yes > /dev/null & pids+=($!); done
	started=$SECONDS
	if bash "$clone/.ci/run" > "$clone.log" 2>&1; then result=green; else result=RED; failed=$((failed + 1)); fi
	for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
	echo "run $run of $runs at $head, $busy core(s) busy: $result in $((SECONDS - started)) s (log: $clone.log)"
	grep -E '^[0-9]+ passed, [0-9]+ failed|passing|failing' "$clone.log" | sed 's/^/    /'
	[ "$result" = green ] && rm -rf "$clone"
done
exit $((failed > 0))
