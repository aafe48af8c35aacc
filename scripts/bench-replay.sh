#!/usr/bin/env bash
# Replay throughput and peak memory on a large generated trace:
#   scripts/bench-replay.sh [TIMERSIM] [SIZE]
# Generates build/big-trace.txt (default 1G, kept between runs) from the
# shared 3.6 recording, replays it once through each scheme given in
# $SCHEMES (default classic), and prints MB/s, events/s and peak RSS.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-build/timersim}
size=${2:-1G}
trace=build/big-trace-$size.txt
[ -s "$trace" ] || scripts/gen-big-trace.sh "$trace" "$size"
bytes=$(stat -c %s "$trace")
for scheme in ${SCHEMES:-classic}; do
  /usr/bin/time -f '%e %M' -o build/bench-replay.time \
    "$bin" replay --scheme "$scheme" "$trace" --json build/bench-replay.json >/dev/null
  read -r secs rss_kb < build/bench-replay.time
  events=$(sed -n 's/^    "events": \([0-9]*\),$/\1/p' build/bench-replay.json | head -1)
  awk -v s="$scheme" -v b="$bytes" -v t="$secs" -v e="$events" -v m="$rss_kb" 'BEGIN {
    printf "replay %-14s %.0f MB in %.2f s: %.0f MB/s, %.2f M events/s, peak RSS %.1f MB\n",
           s, b/1e6, t, b/1e6/t, e/1e6/t, m/1024 }'
done
