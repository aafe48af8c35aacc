#!/usr/bin/env bash
# make soak: replays every shared trace through every scheme, round after
# round with varied options, under the sanitizer build given as $1, for
# ${SOAK_SECONDS:-1800} seconds. Each run must exit 0 and give the same
# bytes as the same run before it (reports are deterministic). Stops at the
# first failure with the command that failed.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:?usage: soak.sh TIMERSIM}
secs=${SOAK_SECONDS:-1800}
shared=${TIMERSIM_SHARED:-../shared}/traces
[ -d "$shared" ] || { echo "soak.sh: no $shared" >&2; exit 1; }

traces=(tests/data/default-trace.txt.gz)
for t in "$shared"/*/trace.txt "$shared"/*/trace.dat "$shared"/*/trace-cmd-report.txt \
         "$shared"/*/perf-script.txt "$shared"/*/ctf; do
  [ -e "$t" ] && traces+=("$t")
done
option_sets=("" "--drain" "--lenient --drain" "--base-small" "--word-bits 32 --drain"
             "--param order=lifo")
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
end=$((SECONDS + secs)) runs=0 round=0
while [ $SECONDS -lt $end ]; do
  round=$((round + 1))
  for t in "${traces[@]}"; do
    for scheme in $("$bin" --list-schemes); do
      opts=${option_sets[$(( (round + runs) % ${#option_sets[@]} ))]}
      # Options of one scheme only apply to it.
      [ "$scheme" != classic ] && opts=${opts//--param order=lifo/}
      [ "$scheme" != classic ] && opts=${opts//--base-small/}
      # shellcheck disable=SC2086
      if ! "$bin" replay --scheme "$scheme" $opts --json "$out/new.json" "$t" >/dev/null 2>"$out/err"; then
        echo "soak.sh: FAILED: $bin replay --scheme $scheme $opts $t" >&2
        cat "$out/err" >&2
        exit 1
      fi
      key=$(echo "$t $scheme $opts" | md5sum | cut -c1-16)
      if [ -f "$out/$key.json" ] && ! cmp -s "$out/$key.json" "$out/new.json"; then
        echo "soak.sh: NOT DETERMINISTIC: replay --scheme $scheme $opts $t" >&2
        exit 1
      fi
      mv "$out/new.json" "$out/$key.json"
      runs=$((runs + 1))
      [ $SECONDS -lt $end ] || break 2
    done
  done
done
echo "soak.sh: $runs runs in $round rounds, all clean and deterministic"
