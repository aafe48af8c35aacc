#!/usr/bin/env bash
# Records a timer trace on this machine through tracefs (as root):
#   scripts/record-trace.sh OUT.txt.gz [SECONDS] [WORKLOAD]
# Enables the timer:* events (the hrtimer ones too: they carry the ticks)
# in a tracefs instance of its own, runs a workload, then saves the raw
# tracefs text, gzip-compressed. WORKLOAD is
#   mixed      (default) arms many kinds of timers on every CPU: sleeps, a
#              loopback TCP server with keep-alive connections, fsync writes
#   busy-idle  keeps CPU 0 busy (a spinning loop at nice 19 plus the HTTP
#              clients, pinned there) and leaves the other CPUs to the
#              kernel's own housekeeping, so that they idle with their tick
#              stopped and their deferrable timers (vmstat, writeback) wait
#              for the next tick: the recording shows them run late.
set -euo pipefail
out=${1:?usage: record-trace.sh OUT.txt.gz [SECONDS] [mixed|busy-idle]}
secs=${2:-10}
workload=${3:-mixed}
case $workload in
mixed | busy-idle) ;;
*) echo "record-trace: unknown workload '$workload' (mixed, busy-idle)" >&2; exit 2 ;;
esac
if [ "$workload" = busy-idle ] && [ "$(nproc)" -lt 2 ]; then
	echo "record-trace: busy-idle needs two CPUs" >&2
	exit 2
fi

T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
[ -w $T/instances ] || { echo "record-trace: need root and tracefs at $T" >&2; exit 1; }
# An instance of our own: its buffer and event switches are not shared with
# anyone else tracing on this machine.
I=$T/instances/timersim-$$
mkdir "$I"
work=$(mktemp -d)
trap 'echo 0 > "$I/tracing_on"; kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true;
      rmdir "$I" 2>/dev/null || true; rm -rf "$work"' EXIT

echo 0 > "$I/tracing_on"
echo 8192 > "$I/buffer_size_kb"
echo 1 > "$I/events/timer/enable"

# busy-idle: this script and everything it starts stay on CPU 0.
[ "$workload" = busy-idle ] && taskset -pc 0 $$ >/dev/null

echo 1 > "$I/tracing_on"
[ "$workload" = busy-idle ] && { nice -n 19 sh -c 'while :; do :; done' & }
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
clients=$!
while [ $SECONDS -lt $end ]; do
	dd if=/dev/zero of="$work/f" bs=64k count=4 conv=fsync status=none
	sleep 0.$((RANDOM % 9 + 1))
done
wait $clients 2>/dev/null || true
echo 0 > "$I/tracing_on"
cat "$I/trace" | gzip -9 > "$out"
echo "record-trace: $(zcat "$out" | wc -l) lines -> $out ($(stat -c %s "$out") bytes)" >&2
