#!/usr/bin/env bash
# Replay throughput and peak memory on a large generated trace:
#   scripts/bench-replay.sh [TIMERSIM] [SIZE]
# Generates build/big-trace-SIZE.txt (default 1G, kept between runs) from
# tests/data/measured-network-quiet.txt.gz (scripts/gen-big-trace.sh: a 6.18
# recording with the wheel's, the hrtimers', the softirq and the timer
# interrupt events, repeated), replays it once through each scheme given in
# $SCHEMES (default classic) under each tick model in $TICKS (default
# "recorded every-jiffy": the trace has its ticks, so the difference is the
# tick model's cost), $RUNS times (default 9, after one untimed run that
# reads it from disk: page cache warm, as readahead fills it), and prints
# the median run's MB/s, events/s and peak RSS: the whole process, as a
# user's `time timersim replay` sees it; then the first scheme and tick
# model again on a copy written in 4 KiB writes (cached as written: see
# uncache below). Then `compare`
# of every scheme against one replay (the ratio), then
# scripts/bench-peers.sh: trace.dat and CTF replays against trace-cmd report
# and babeltrace, whole processes likewise. Then the reader alone on the same file (parsing, and read(2) +
# parsing), from tests/bench/bench_text_readers, brought up to date here, so
# that the reader's and the replay engine's shares show apart.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/timersim}
size=${2:-1G}
source=${BENCH_SOURCE:-tests/data/measured-network-quiet.txt.gz}
# Named by its source too: a big trace kept from another source is not reused.
trace=build/big-trace-$size-$(basename "$source" | sed 's/\.txt.*//; s/\.gz$//').txt
[ -s "$trace" ] || scripts/gen-big-trace.sh "$trace" "$size" "$source"
bytes=$(stat -c %s "$trace")
runs=${RUNS:-9}
# What state the page cache holds the trace in matters: read from disk,
# the kernel's readahead caches a file in large folios, and read(2)
# copies it out at four times the speed it copies a file written in 4 KiB
# writes (awk's here, `cat trace_pipe > file`'s), cached a page a folio:
# a fifth of the replay's CPU time on this VM (perf: _copy_to_iter,
# filemap_get_read_batch). Each state is made here, not left to chance:
# the trace is written back and dropped from the cache, and the untimed
# first run reads it back from disk; the last row replays a copy written
# in 4 KiB writes just before.
schemes=${SCHEMES:-classic} tick_models=${TICKS:-recorded every-jiffy}
uncache() { sync -- "$1" && dd if="$1" iflag=nocache count=0 status=none; }
# Replays FILE with SCHEME and TICKS, RUNS times after an untimed run, and
# prints the median run's figures, NOTE after them.
replay_row() {
  local scheme=$1 ticks=$2 file=$3 note=$4
  : >build/bench-replay.times
  for ((i = -1; i < runs; i++)); do
    scripts/timed.py build/bench-replay.out build/bench-replay.err \
      "$bin" replay --scheme "$scheme" --ticks "$ticks" "$file" --json build/bench-replay.json >build/bench-replay.time
    ((i < 0)) || cat build/bench-replay.time >>build/bench-replay.times
  done
  # The median run by wall time.
  read -r secs user sys rss_kb < <(sort -g build/bench-replay.times | sed -n "$(((runs + 1) / 2))p")
  events=$(sed -n 's/^    "events": \([0-9]*\),$/\1/p' build/bench-replay.json | head -1)
  awk -v s="$scheme" -v k="$ticks" -v b="$bytes" -v t="$secs" -v c="$user + $sys" -v e="$events" -v m="$rss_kb" -v r="$runs" -v n="$note" 'BEGIN {
    split(c, p, " + "); cpu = p[1] + p[2]
    printf "replay %-14s %-11s %.0f MB in %.2f s: %.0f MB/s, %.2f M events/s (CPU %.2f s: %.0f MB/s), peak RSS %.1f MB (median of %d)%s\n",
           s, k, b/1e6, t, b/1e6/t, e/1e6/t, cpu, b/1e6/cpu, m/1024, r, n }'
}
uncache "$trace"
for scheme in $schemes; do
  for ticks in $tick_models; do
    replay_row "$scheme" "$ticks" "$trace" ""
  done
done
small=${trace%.txt}-4k-writes.txt
trap 'rm -f -- "$small"' EXIT	# 1 GB: not left behind by a failed or stopped run
dd if="$trace" of="$small" bs=4k status=none
replay_row "${schemes%% *}" "${tick_models%% *}" "$small" "; the trace written in 4 KiB writes"
rm -f -- "$small"
# `compare` of every scheme against one `replay` of the same trace, whole
# processes in turns likewise ($COMPARE_RUNS of each, default 3: a compare
# is several replays' work): docs/speed.md's "compare of all nine schemes against one replay".
cruns=${COMPARE_RUNS:-3}
: >build/bench-compare.replay; : >build/bench-compare.compare
for ((i = 0; i < cruns; i++)); do
  for what in replay compare; do
    if ! scripts/timed.py build/bench-compare.out build/bench-compare.err \
        "$bin" "$what" "$trace" >build/bench-compare.time; then
      echo "bench-replay: timersim $what $trace failed:" >&2; cat build/bench-compare.err >&2; exit 1
    fi
    awk '{ printf "%s %.3f\n", $1, $2 + $3 }' build/bench-compare.time >>"build/bench-compare.$what"
  done
done
med() { sort -g -k"$2","$2" "$1" | awk -v c="$2" '{ v[NR] = $c } END { print v[int((NR + 1) / 2)] }'; }
awk -v rw="$(med build/bench-compare.replay 1)" -v rc="$(med build/bench-compare.replay 2)" \
    -v cw="$(med build/bench-compare.compare 1)" -v cc="$(med build/bench-compare.compare 2)" -v r="$cruns" 'BEGIN {
  printf "compare    every scheme %.2f s wall, %.2f s CPU; one replay %.2f s wall, %.2f s CPU: %.2fx wall, %.2fx CPU (goal <= 1.5x; medians of %d in turns)\n",
         cw, cc, rw, rc, cw / rw, cc / rc, r }'
scripts/bench-peers.sh "$bin" "$runs"
reader=build/bench/bench_text_readers
# Made every time (make does nothing when it is current): a bench binary
# kept from an older tree measured that tree's reader.
make --no-print-directory "$reader" >/dev/null
TIMERSIM_BIG_TRACE=$trace "$reader" --benchmark_filter='big-trace' 2>/dev/null |
  awk 'function scaled(v) {	# Google Benchmark prints 1.72847k: its own SI suffix
         if (v ~ /k$/) return v * 1e3; if (v ~ /M$/) return v * 1e6; if (v ~ /G$/) return v * 1e9; return v + 0 }
       /^text_/ { for (i = 1; i <= NF; i++) if ($i ~ /^MB\/s=/) { sub(/MB\/s=/, "", $i); sub(/\/s$/, "", $i); mbs = scaled($i) }
                  what = $1 ~ /memory/ ? "parsing alone (first 64 MiB, in memory)" : "read(2) + parsing (whole file)"
                  sub(/\/iterations:1/, "", $1)
                  printf "reader %-22s %s: %.0f MB/s CPU\n", $1, what, mbs }'
