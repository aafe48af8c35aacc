#!/usr/bin/env bash
# Runs each Google Benchmark binary and keeps its JSON beside it:
#   run-benches.sh OUTDIR BIN...   ->  OUTDIR/NAME.json
# BENCH_FILTER narrows the run (passed as --benchmark_filter).
set -euo pipefail
out=$1; shift
mkdir -p "$out"
for bin in "$@"; do
  name=$(basename "$bin")
  echo "== $name -> $out/$name.json"
  "$bin" --benchmark_out="$out/$name.json" --benchmark_out_format=json \
         ${BENCH_FILTER:+--benchmark_filter="$BENCH_FILTER"}
done
# The wheel goals' ratios, raw wheel against the scheme layer, from this run.
goals="$out/bench_wheel_goals.json"
if [ -s "$goals" ] && [ -z "${BENCH_FILTER:-}" ]; then
  scripts/wheel-goal-ratios.py "$goals"
fi
