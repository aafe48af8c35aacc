#!/usr/bin/env bash
# Records a timer trace of a network-heavy workload on this machine (as root):
#   scripts/record-network-trace.sh OUT.txt.gz [SECONDS] [CONNECTIONS]
# The timer-wheel events go to a tracefs instance of their own (so that other
# tracing on the machine is neither disturbed nor recorded) while a loopback
# TCP server answers CONNECTIONS long-lived keep-alive clients (requests
# back to back with short pauses) and a stream of short connections
# (connect, one request, close). Saves the raw tracefs text, gzip-compressed.
set -euo pipefail
out=${1:?usage: record-network-trace.sh OUT.txt.gz [SECONDS] [CONNECTIONS]}
secs=${2:-10}
conns=${3:-200}
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
[ -w $T/instances ] || { echo "record-network-trace: need root and tracefs at $T" >&2; exit 1; }
I=$T/instances/timersim-net-$$
mkdir "$I"
work=$(mktemp -d)
cleanup() {
  echo 0 > "$I/tracing_on" 2>/dev/null || true
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  rmdir "$I" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

cat > "$work/load.py" <<'PY'
import asyncio, socket, sys, time, random
secs, conns = float(sys.argv[1]), int(sys.argv[2])
PORT = 18090

async def handle(reader, writer):
    try:
        while True:
            line = await reader.readline()
            if not line:
                break
            writer.write(b"x" * random.choice((64, 512, 4096)) + b"\n")
            await writer.drain()
    except ConnectionError:
        pass
    writer.close()

async def keepalive_client(end):
    r, w = await asyncio.open_connection("127.0.0.1", PORT)
    w.get_extra_info("socket").setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
    while time.time() < end:
        w.write(b"get\n")
        await w.drain()
        await r.readline()
        await asyncio.sleep(random.expovariate(1 / 0.02))
    w.close()

async def short_clients(end):
    while time.time() < end:
        try:
            r, w = await asyncio.open_connection("127.0.0.1", PORT)
            w.write(b"get\n")
            await w.drain()
            await r.readline()
            w.close()
        except OSError:
            pass
        await asyncio.sleep(0.002)

async def main():
    server = await asyncio.start_server(handle, "127.0.0.1", PORT, backlog=1024)
    end = time.time() + secs
    await asyncio.gather(*(keepalive_client(end) for _ in range(conns)), short_clients(end))
    server.close()

asyncio.run(main())
PY

echo 0 > "$I/tracing_on"
echo 65536 > "$I/buffer_size_kb"
# The timer-wheel events only (not hrtimer_*, which would double the file).
for e in timer_init timer_start timer_cancel timer_expire_entry timer_expire_exit timer_base_idle; do
  [ -d "$I/events/timer/$e" ] && echo 1 > "$I/events/timer/$e/enable"
done
echo 1 > "$I/tracing_on"
python3 "$work/load.py" "$secs" "$conns"
echo 0 > "$I/tracing_on"
cat "$I/trace" | gzip -9 > "$out"
lost=$(grep -c 'LOST\|DROPPED' <(zcat "$out") || true)
echo "record-network-trace: $(zcat "$out" | wc -l) lines, $lost lost-event notes -> $out ($(stat -c %s "$out") bytes)" >&2
