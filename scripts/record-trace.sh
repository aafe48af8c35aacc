#!/usr/bin/env bash
# Records a timer trace on this machine through tracefs (as root):
#   scripts/record-trace.sh OUT.txt.gz [SECONDS]
# Enables the timer:* events, runs a small workload that arms many kinds of
# timers (sleeps, a loopback TCP server with keep-alive connections, fsync
# writes), then saves the raw tracefs text, gzip-compressed.
set -euo pipefail
out=${1:?usage: record-trace.sh OUT.txt.gz [SECONDS]}
secs=${2:-10}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
[ -w $T/trace ] || { echo "record-trace: need root and tracefs at $T" >&2; exit 1; }

echo 0 > $T/tracing_on
echo > $T/trace
echo 8192 > $T/buffer_size_kb
echo 0 > $T/events/enable
echo 1 > $T/events/timer/enable
echo 1 > $T/tracing_on

work=$(mktemp -d)
trap 'echo 0 > $T/tracing_on; echo 0 > $T/events/timer/enable; kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
# Loopback HTTP with keep-alive clients: TCP retransmit/delack/keepalive timers.
python3 -m http.server 18080 --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
sleep 0.5
end=$((SECONDS + secs))
python3 - "$secs" <<'PY' &
import http.client, sys, time
end = time.time() + float(sys.argv[1])
while time.time() < end:
    try:
        c = http.client.HTTPConnection("127.0.0.1", 18080, timeout=2)
        for _ in range(5):
            c.request("GET", "/"); c.getresponse().read()
        c.close()
    except OSError:
        pass
    time.sleep(0.05)
PY
while [ $SECONDS -lt $end ]; do
  dd if=/dev/zero of="$work/f" bs=64k count=4 conv=fsync status=none
  sleep 0.$((RANDOM % 9 + 1))
done
wait %2 2>/dev/null || true
echo 0 > $T/tracing_on
gzip -9 < $T/trace > "$out"
echo "record-trace: $(zcat "$out" | wc -l) lines -> $out ($(stat -c %s "$out") bytes)" >&2
