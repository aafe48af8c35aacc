#!/usr/bin/env bash
# Regenerates docs/results (make results): both sweeps, their CSVs, the
# table (table.md, and the same table in README.md between its "table"
# markers, with the commit whose code computed it) and the plots.
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
for s in recordings generated; do
  "$bin" sweep "$R/$s.spec" -j "$jobs"
  "$bin" merge "$R/$s.spec" -o "$into/$s.csv"
done
# The softirq-run cost model, fitted on this machine's quiet recordings
# (scripts/cost-model.sh), and the recordings priced by it.
scripts/cost-model.sh "$bin" "$into/cost-model" > /dev/null
S=${TIMERSIM_SHARED:-../shared}/traces
model_traces=()
for t in "$S/linux-3.6-scp_dest/ctf" "$S/linux-6.18-http/trace.txt" "$S/linux-6.18-tcp/perf-script.txt" \
  tests/data/network-trace.txt.gz tests/data/default-trace.txt.gz tests/data/measured-network-quiet.txt.gz \
  tests/data/measured-idle.txt.gz tests/data/measured-network.txt.gz tests/data/sleep-net.txt.gz; do
  [ -e "$t" ] && model_traces+=("$t")
done
{
  scripts/results-table.py "$into/recordings.csv" "$into/generated.csv"
  echo
  scripts/results-model.py "$bin" "$into/cost-model/model.json" "${model_traces[@]}"
} > "$into/table.md.tmp"
mv "$into/table.md.tmp" "$into/table.md"

# The commit whose code computed the numbers (-dirty: with uncommitted
# changes, which a committed table should never say).
commit=$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)
git diff --quiet HEAD -- . ':!docs/results' 2>/dev/null || commit="$commit-dirty"
scripts/results-readme.py "$R/README.md" "$into/table.md" "$commit" "$("$bin" --version)" > "$into/README.md.tmp"
mv "$into/README.md.tmp" "$into/README.md"

if [ "$plots" = 1 ]; then
  scripts/plot-sweep.py "$into/generated.csv" --x scale --y softirq_us --by scheme,hz --logx --logy \
    --title "webserver, 4 CPUs: estimated timer softirq time (10 s)" -o "$into/softirq-by-scale.png"
  scripts/plot-sweep.py "$into/generated.csv" --heatmap hz,scale --y softirq_us --ratio classic/v48 \
    --title "softirq time, classic / v48" -o "$into/softirq-ratio.png"
fi
echo "results: $into/table.md, $into/README.md, $into/*.csv$([ "$plots" = 1 ] && echo ", $into/*.png")"
