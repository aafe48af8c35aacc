#!/usr/bin/env bash
# Regenerates docs/results (make results): both sweeps (minutes; resumable:
# an interrupted run picks up where it stopped), their CSVs, the table and
# the plots. The recordings' sweep reads ../shared/traces beside the
# checkout. The calibration used is docs/results/calibration.json, this
# machine's (make calibrate; cp build/calibration.json docs/results/).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/timersim}
jobs=${JOBS:-2}
R=docs/results
for s in recordings generated; do
  "$bin" sweep "$R/$s.spec" -j "$jobs"
  "$bin" merge "$R/$s.spec" -o "$R/$s.csv"
done
scripts/results-table.py "$R/recordings.csv" "$R/generated.csv" > "$R/table.md.tmp"
mv "$R/table.md.tmp" "$R/table.md"
scripts/plot-sweep.py "$R/generated.csv" --x scale --y softirq_us --by scheme,hz --logx --logy \
  --title "webserver, 4 CPUs: estimated timer softirq time (10 s)" -o "$R/softirq-by-scale.png"
scripts/plot-sweep.py "$R/generated.csv" --heatmap hz,scale --y softirq_us --ratio classic/v48 \
  --title "softirq time, classic / v48" -o "$R/softirq-ratio.png"
echo "results: $R/table.md, $R/*.csv, $R/*.png"
