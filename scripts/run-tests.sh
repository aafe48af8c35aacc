#!/usr/bin/env bash
# Runs every Check test binary given, one after another, and closes with a
# single "N passed, N failed" line. Check prints its own summary per binary;
# a binary that crashes or exits non-zero counts as failed.
# A *.py argument is a Python unittest file, run by Debian's python3 with
# TIMERSIM_PYTHONPATH (the built module, make python) on its path; its tests
# count like Check's.
set -u
passed=0 failed=0 failed_names=()
run_python() {
  local file=$1 name out rc ran bad
  name=$(basename "$file")
  echo "== $name"
  out=$(PYTHONPATH="${TIMERSIM_PYTHONPATH:-build/python}" /usr/bin/python3 -m unittest "$file" 2>&1); rc=$?
  printf '%s\n' "$out"
  # unittest's summary: "Ran 12 tests in 3.1s", then "OK" or
  # "FAILED (failures=1, errors=2)".
  ran=$(printf '%s\n' "$out" | sed -n 's/^Ran \([0-9]*\) tests\{0,1\} in.*/\1/p' | tail -n1)
  bad=$(printf '%s\n' "$out" | sed -n 's/^FAILED (\(.*\))$/\1/p' | tr ',' '\n' |
        sed -n 's/ *\(failures\|errors\)=\([0-9]*\)/\2/p' | awk '{s+=$1} END {print s+0}')
  ran=${ran:-0}
  passed=$((passed + ran - bad)); failed=$((failed + bad))
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then failed=$((failed + 1)); fi
  if [ "$rc" -ne 0 ]; then failed_names+=("$name"); fi
}
for bin in "$@"; do
  case $bin in *.py) run_python "$bin"; continue ;; esac
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
