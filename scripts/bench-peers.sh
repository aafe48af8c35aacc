#!/usr/bin/env bash
# Whole-process speed as a user sees it, side by side with the peer tools:
#   scripts/bench-peers.sh [TIMERSIM] [RUNS]
# For each shared recording present (../shared/traces, or $TIMERSIM_SHARED):
#   trace.dat of the 6.18 http recording: `timersim replay` against `trace-cmd report`
#   CTF of the 3.6 recording:              `timersim replay` against `babeltrace`
# each command's stdout to a file (as `> out.txt` would), stderr likewise,
# one untimed run of each first (page cache warm), then RUNS (default 9)
# runs of each in turns, the order alternating. Prints the median wall time
# and the median CPU time (user + sys) of each, and their ratios. The wall
# figures are those to publish only on an otherwise idle machine; the CPU
# figures hold on a loaded one too (timersim's CPU counts both its threads).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/timersim}
runs=${2:-9}
shared=${TIMERSIM_SHARED:-../shared}/traces
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One run of "$@": "wall cpu" in seconds, appended to file $1, to the
# microsecond (scripts/timed.py: /usr/bin/time's 10 ms steps were a third
# of a 30 ms replay).
timed() {
  local log=$1; shift
  scripts/timed.py "$tmp/stdout" "$tmp/stderr" "$@" >"$tmp/time" ||
    { echo "bench-peers: '$*' failed:" >&2; cat "$tmp/stderr" >&2; exit 1; }
  awk '{ printf "%s %.6f\n", $1, $2 + $3 }' "$tmp/time" >>"$log"
}

median() {	# column $2 of file $1
  sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'
}

compare_with() {	# NAME GOAL PEER-COMMAND... -- TRACE
  local name=$1 goal=$2; shift 2
  local peer=() trace
  while [ "$1" != -- ]; do peer+=("$1"); shift; done
  trace=$2
  if ! command -v "${peer[0]}" >/dev/null; then echo "bench-peers: ${peer[0]} not installed: $name skipped" >&2; return; fi
  if [ ! -e "$trace" ]; then echo "bench-peers: $trace absent: $name skipped" >&2; return; fi
  : >"$tmp/ours"; : >"$tmp/theirs"
  timed "$tmp/warm" "$bin" replay "$trace"
  timed "$tmp/warm" "${peer[@]}" "$trace"
  for ((i = 0; i < runs; i++)); do
    if ((i % 2 == 0)); then
      timed "$tmp/ours" "$bin" replay "$trace"; timed "$tmp/theirs" "${peer[@]}" "$trace"
    else
      timed "$tmp/theirs" "${peer[@]}" "$trace"; timed "$tmp/ours" "$bin" replay "$trace"
    fi
  done
  awk -v n="$name" -v peer="${peer[*]}" -v g="$goal" -v r="$runs" \
      -v ow="$(median "$tmp/ours" 1)" -v oc="$(median "$tmp/ours" 2)" \
      -v tw="$(median "$tmp/theirs" 1)" -v tc="$(median "$tmp/theirs" 2)" 'BEGIN {
    printf "%-10s timersim replay %.4f s wall, %.4f s CPU; %s %.4f s wall, %.4f s CPU: %.1fx wall, %.1fx CPU (goal >= %sx; medians of %d in turns)\n",
           n, ow, oc, peer, tw, tc, tw / ow, tc / oc, g, r }'
}

compare_with trace.dat 10 trace-cmd report -- "$shared/linux-6.18-http/trace.dat"
compare_with CTF 4 babeltrace -- "$shared/linux-3.6-scp_dest/ctf"
