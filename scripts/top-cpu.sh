#!/usr/bin/env bash
# What `timersim top` itself costs: its CPU time over SECONDS (default 60)
# of a live session at about 10,000 events/s (scripts/top-load.py), as a
# share of one CPU, and the event rate it saw. Root and tracefs; one
# recording at a time on a shared machine (flock LOCK, when given).
#
#   scripts/top-cpu.sh [SECONDS] [LOCK]
set -euo pipefail
seconds=${1:-60}
lock=${2:-}
bin=${TIMERSIM:-build/timersim}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT

measure() {
  "$here/top-load.py" --seconds $((seconds + 10)) &
  load=$!
  sleep 2
  "$bin" top --batch --interval 1 --json-lines "$dir/top.jsonl" > /dev/null &
  top=$!
  sleep "$seconds"
  # utime + stime of every thread of top's process, in clock ticks.
  read -r -a stat < "/proc/$top/stat"
  ticks=$((stat[13] + stat[14]))
  start=${stat[21]}
  kill -INT "$top"
  wait "$top"
  kill "$load" 2> /dev/null || true
  wait "$load" 2> /dev/null || true
  hz=$(getconf CLK_TCK)
  uptime=$(cut -d' ' -f1 /proc/uptime)
  python3 - "$dir/top.jsonl" "$ticks" "$hz" "$seconds" <<'PY'
import json, sys
path, ticks, hz, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
lines = [json.loads(l) for l in open(path)]
final = [l for l in lines if l["final"]][-1]["run"]
events = final["events"]
cpu = ticks / hz
print(f"events {events} in {final['seconds']:.1f} s: {events / final['seconds']:.0f} events/s; "
      f"lost {final['lost_events']}")
print(f"timersim top: {cpu:.2f} s of CPU in {seconds:.0f} s = {100 * cpu / seconds:.2f}% of one CPU")
PY
}

if [ -n "$lock" ]; then
  export -f measure
  export seconds bin dir here
  flock "$lock" bash -c measure
else
  measure
fi
