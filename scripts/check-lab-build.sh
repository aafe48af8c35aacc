#!/usr/bin/env bash
# The lab build (`make lab`) against the full one: LAB (build/lab/timersim)
# must need neither libtracecmd/libtraceevent nor libbabeltrace, must give
# the full build's (FULL, build/timersim) output for the lab's commands --
# a `lab` question with its answer, `step` and `view` of a handbook scenario,
# replay of a text trace and lab 5's `step --trace` -- and must refuse a trace.dat file and a CTF trace
# with exit 2, naming the full build. `make check-lab` runs it (CI does).
#
#   scripts/check-lab-build.sh LAB FULL
set -uo pipefail
cd "$(dirname "$0")/.."
lab=${1:?usage: check-lab-build.sh LAB FULL}
full=${2:?usage: check-lab-build.sh LAB FULL}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0 passed=0

fail() { echo "lab build: $*" >&2; failed=$((failed + 1)); }
pass() { passed=$((passed + 1)); }

# What the dynamic linker loads: the binary's own NEEDED entries.
needed=$(readelf -d "$lab" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
if [ -z "$needed" ]; then
  fail "$lab: readelf -d lists no NEEDED library (not a dynamic binary?)"
elif grep -E 'tracecmd|traceevent|tracefs|babeltrace' <<<"$needed"; then
  fail "$lab links the binary readers' libraries (above)"
else
  pass
fi

# The same command through both binaries: the same stdout and exit status.
same() {
  "$lab" "$@" >"$tmp/lab.out" 2>"$tmp/lab.err"; local lab_rc=$?
  "$full" "$@" >"$tmp/full.out" 2>"$tmp/full.err"; local full_rc=$?
  if [ $lab_rc -ne 0 ] || [ $full_rc -ne 0 ]; then
    fail "timersim $*: exit $lab_rc (lab build), $full_rc (full build): $(head -2 "$tmp/lab.err")"
  elif [ ! -s "$tmp/full.out" ]; then
    fail "timersim $*: no output from the full build"
  elif ! cmp -s "$tmp/lab.out" "$tmp/full.out"; then
    fail "timersim $*: the lab build's output differs from the full build's:"
    diff "$tmp/full.out" "$tmp/lab.out" | head -10 >&2
  else
    pass
  fi
}

same lab place -s 7 -c
same step --explain docs/lab/scenarios/first-cascade.txt
same step --scheme v48 docs/lab/scenarios/four-eight.txt
same replay --top 3 tests/data/default-trace.txt.gz
same step --trace tests/data/default-trace.txt.gz --scheme v48 --from 4295061000 --to 4295061020

# view writes a page: the two pages, byte for byte.
if "$lab" view docs/lab/scenarios/boundaries.txt -o "$tmp/lab.html" &&
   "$full" view docs/lab/scenarios/boundaries.txt -o "$tmp/full.html"; then
  if [ ! -s "$tmp/full.html" ]; then fail "view: the full build wrote no page"
  elif cmp -s "$tmp/lab.html" "$tmp/full.html"; then pass
  else fail "view docs/lab/scenarios/boundaries.txt: the pages differ"; fi
else
  fail "view docs/lab/scenarios/boundaries.txt failed"
fi

# A binary trace: exit 2, the file named, and the way to the full build.
refused() {
  local what=$1 path=$2
  "$lab" replay "$path" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  if [ $rc -ne 2 ]; then
    fail "replay of $what: exit $rc, not 2"
  elif ! grep -q "$path" "$tmp/err" || ! grep -q 'built by `make lab`' "$tmp/err" ||
       ! grep -q 'run `make` for the full build' "$tmp/err"; then
    fail "replay of $what: the refusal does not name the file and the full build: $(cat "$tmp/err")"
  elif [ -s "$tmp/out" ]; then
    fail "replay of $what: wrote to stdout though it read nothing"
  else
    pass
  fi
}
refused "a trace.dat file" tests/data/sleep-net.dat
mkdir "$tmp/ctf" && printf '/* CTF 1.8 */\n' >"$tmp/ctf/metadata"
refused "a CTF trace" "$tmp/ctf"

echo "lab build: $passed passed, $failed failed"
[ $failed -eq 0 ]
