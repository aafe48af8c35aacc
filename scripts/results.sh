#!/usr/bin/env bash
# Regenerates docs/results (make results): the cost model, both sweeps
# priced by it, their CSVs, the table (table.md, and README.md made from
# README.template.md: the table between its "table" markers, with the
# commit whose code computed it, and every number of the prose) and the
# plots (headline.png: the figure of the headline).
#
#   scripts/results.sh [TIMERSIM] [--into DIR] [--no-plots]
#
# --into DIR writes the CSVs, table.md and README.md there instead (what
# scripts/results-check.sh compares with the committed ones). The cells are
# kept in build/results/*.d (the specs' `out`): a run picks up where an
# interrupted one stopped, and re-runs every cell whose key changed (the
# program, a trace's bytes, the calibration). The recordings' sweep reads
# ../shared/traces beside the checkout. The calibration is
# docs/results/calibration.json (make calibrate; cp build/calibration.json
# docs/results/).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/timersim
into=docs/results
plots=1
while [ $# -gt 0 ]; do
  case "$1" in
    --into) into=$2; shift 2 ;;
    --no-plots) plots=0; shift ;;
    *) bin=$1; shift ;;
  esac
done
jobs=${JOBS:-2}
R=docs/results
mkdir -p "$into"
# The softirq-run cost model, fitted on this machine's quiet recordings
# (scripts/cost-model.sh), first: the specs price every cell by the one
# in docs/results/cost-model (cost_model =), the one estimate of every
# figure here. (With --into, the sweeps use the committed model and the
# fit is regenerated beside them for results-check to compare.)
scripts/cost-model.sh "$bin" "$into/cost-model" > /dev/null
for s in recordings generated; do
  "$bin" sweep "$R/$s.spec" -j "$jobs"
  "$bin" merge "$R/$s.spec" -o "$into/$s.csv"
done
scripts/results-table.py "$into/recordings.csv" "$into/generated.csv" > "$into/table.md.tmp"
mv "$into/table.md.tmp" "$into/table.md"

# The commit whose code computed the numbers (-dirty: with uncommitted
# changes, which a committed table should never say).
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- . ':!docs/results' 2>/dev/null || commit="$commit-dirty"
scripts/results-readme.py "$R/README.template.md" "$into/table.md" "$commit" "$("$bin" --version)" \
  "$into/recordings.csv" "$into/generated.csv" > "$into/README.md.tmp"
mv "$into/README.md.tmp" "$into/README.md"

if [ "$plots" = 1 ]; then
  scripts/results-figure.py "$into/recordings.csv" "$into/generated.csv" -o "$into/headline.png"
  scripts/plot-sweep.py "$into/generated.csv" --x scale --y softirq_ns --by scheme,hz --logx --logy \
    --title "webserver, 4 CPUs: timer softirq overhead in 10 s" \
    -o "$into/softirq-by-scale.png"
  scripts/plot-sweep.py "$into/generated.csv" --heatmap hz,scale --y softirq_ns --ratio classic/v48 \
    --title "timer softirq overhead, classic / v48" -o "$into/softirq-ratio.png"
fi
echo "results: $into/table.md, $into/README.md, $into/*.csv$([ "$plots" = 1 ] && echo ", $into/*.png")"
