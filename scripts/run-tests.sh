#!/usr/bin/env bash
# Runs every Check test binary given, one after another, and closes with a
# single "N passed, N failed" line. Check prints its own summary per binary;
# a binary that crashes or exits non-zero counts as failed.
set -u
passed=0 failed=0 failed_names=()
for bin in "$@"; do
  name=$(basename "$bin")
  echo "== $name"
  out=$("$bin" 2>&1); rc=$?
  printf '%s\n' "$out" | grep -v '^Running suite' || true
  # Check's summary: "100%: Checks: 12, Failures: 0, Errors: 0"
  checks=$(printf '%s\n' "$out" | sed -n 's/.*Checks: \([0-9]*\), Failures: \([0-9]*\), Errors: \([0-9]*\).*/\1 \2 \3/p' |
           awk '{c+=$1; f+=$2+$3} END {print c+0, f+0}')
  read -r c f <<<"$checks"
  passed=$((passed + c - f)); failed=$((failed + f))
  if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then failed=$((failed + 1)); fi
  if [ "$rc" -ne 0 ]; then failed_names+=("$name"); fi
done
[ ${#failed_names[@]} -gt 0 ] && echo "failing: ${failed_names[*]}"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
