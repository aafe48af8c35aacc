#!/usr/bin/env bash
# make results-check (CI): regenerates docs/results into a temporary folder
# and fails when the committed CSVs, table.md or README.md table differ from
# what the code computes now - numbers that no longer follow from the code.
# The README's line naming the commit that computed them is left out of
# the comparison (it names the commit that produced them; this check is
# that every later commit computes the same). The plots are not compared
# (matplotlib's bytes vary by version); make results redraws them.
#
#   scripts/results-check.sh [TIMERSIM]
#   scripts/results-check.sh --prose [DIR]
#
# --prose (seconds; make test runs it through tests/python/test_results.py):
# only that DIR's (default docs/results) table.md and README.md follow
# from its committed CSVs and reference model - the table from the CSVs, every
# number of the README's prose from the same data (README.template.md) -
# without running a sweep.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --prose ]; then
  d=${2:-docs/results}
  scripts/results-table.py "$d/recordings.csv" "$d/generated.csv" | diff -u "$d/table.md" - >&2 || {
    echo "results-check: $d/table.md differs from what its CSVs make" >&2
    exit 1
  }
  scripts/results-readme.py --check "$d/README.md" "$d/README.template.md" "$d/table.md" \
    "$d/recordings.csv" "$d/generated.csv"
  echo "results-check: $d/table.md and README.md follow from its data"
  exit 0
fi
bin=${1:-build/timersim}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
start=$(date +%s)
scripts/results.sh "$bin" --into "$tmp" --no-plots > "$tmp/log" 2>&1 || {
  cat "$tmp/log" >&2
  echo "results-check: regenerating docs/results failed" >&2
  exit 1
}
strip() { grep -v '^Computed by `make results` with the code of commit' "$1"; }
fail=0
for f in recordings.csv generated.csv table.md README.md cost-model/fit.txt cost-model/classic.txt cost-model/model.json \
    cost-model/reference.txt; do
  if ! diff -u <(strip "docs/results/$f") <(strip "$tmp/$f") > "$tmp/$f.diff"; then
    echo "results-check: docs/results/$f differs from what the code computes:" >&2
    head -40 "$tmp/$f.diff" >&2
    fail=1
  fi
done
if [ "$fail" = 1 ]; then
  echo "results-check: run 'make results', review the numbers and the text, and commit docs/results" >&2
  exit 1
fi
echo "results-check: docs/results follow from the code ($(( $(date +%s) - start )) s)"
