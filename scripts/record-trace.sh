#!/usr/bin/env bash
# Records a timer trace on this machine through tracefs (as root):
#   scripts/record-trace.sh OUT.txt.gz [SECONDS] [WORKLOAD]
# Enables the timer:* events (the hrtimer ones too: they carry the ticks)
# in a tracefs instance of its own, and what the timer code cost, measured,
# where the kernel has the events: the TIMER and HRTIMER softirq runs
# (irq:softirq_entry/exit/raise, vec 1 and 8), the hardware timer interrupt
# (irq_vectors:local_timer_entry/exit on x86) and the other hard interrupts
# (irq:irq_handler_*, irq_vectors:*_entry/exit), which nest inside a softirq
# run and are not its time. Then it runs a workload and saves the raw
# tracefs text, gzip-compressed. WORKLOAD is
#   mixed      (default) arms many kinds of timers on every CPU: sleeps, a
#              loopback TCP server with keep-alive connections, fsync writes
#   busy-idle  keeps CPU 0 busy (a spinning loop at nice 19 plus the HTTP
#              clients, pinned there) and leaves the other CPUs to the
#              kernel's own housekeeping, so that they idle with their tick
#              stopped and their deferrable timers (vmstat, writeback) wait
#              for the next tick: the recording shows them run late.
#   network    network-heavy: eight loopback HTTP clients without pauses
#              and a bulk TCP stream (retransmit, delack, keepalive and
#              pacing timers, NET_RX softirqs around the TIMER ones)
#   idle       mostly idle with sleepers: a few processes sleeping 10 ms,
#              100 ms and 1 s in turn, nothing else started
#   sleep-net  a small recording for the reader tests: sleepers (1 ms to
#              100 ms) and two loopback HTTP clients
#   idle-nohz  an idle machine with its tick stopped: two sleepers of 250 ms
#              and 1 s, nothing else; the timer migration events
#              (timer_migration:*) and the idle entries (power:cpu_idle)
#              are recorded too
#   load       scripts/load-workload.py: loopback TCP churn with small
#              writes and delayed ACKs, sleepers with timer slacks of 1 ns
#              to 10 ms and one SCHED_FIFO sleeper, short select() polls,
#              a CPU hog at nice 19; timer migration and idle entries too
# The same recording in more formats, when these are set:
#   TRACE_DAT=X.dat        `trace-cmd extract -B` of the instance (the same
#                          ring buffer as the text: the same events)
#   PERF_SCRIPT=X.txt.gz   a concurrent `perf record -a` of the same events
#                          (the same softirq filter), rendered by `perf
#                          script --ns`: a separate capture of the same period
set -euo pipefail
out=${1:?usage: record-trace.sh OUT.txt.gz [SECONDS] [mixed|busy-idle]}
secs=${2:-10}
workload=${3:-mixed}
case $workload in
mixed | busy-idle | network | idle | sleep-net | idle-nohz | load) ;;
*) echo "record-trace: unknown workload '$workload' (mixed, busy-idle, network, idle, sleep-net, idle-nohz, load)" >&2; exit 2 ;;
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
trap 'echo 0 > "$I/tracing_on" 2>/dev/null; kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true;
      rmdir "$I" 2>/dev/null || true; rm -rf "$work"' EXIT

echo 0 > "$I/tracing_on"
echo 32768 > "$I/buffer_size_kb"
echo 1 > "$I/events/timer/enable"
# The measured cost, where this kernel has the events (an arm64 kernel has
# no irq_vectors; a kernel without softirq events records no measured cost).
enable() { [ -e "$I/events/$1/enable" ] && echo 1 > "$I/events/$1/enable" || true; }
if [ -e "$I/events/irq/softirq_entry" ]; then
	for e in softirq_entry softirq_exit softirq_raise; do
		echo 'vec == 1 || vec == 8' > "$I/events/irq/$e/filter"
		enable irq/$e
	done
fi
enable irq/irq_handler_entry
enable irq/irq_handler_exit
for d in "$I"/events/irq_vectors/*_entry "$I"/events/irq_vectors/*_exit; do
	[ -e "$d/enable" ] && echo 1 > "$d/enable"
done
# The NOHZ tick's evidence beside timer:tick_stop: the migration hierarchy
# (tmigr_cpu_idle/active, or available/unavailable on 6.19+) and the idle
# entries.
if [ "$workload" = idle-nohz ] || [ "$workload" = load ]; then
	enable timer_migration
	enable power/cpu_idle
fi

# busy-idle: this script and everything it starts stay on CPU 0.
[ "$workload" = busy-idle ] && taskset -pc 0 $$ >/dev/null

# perf: the same events, the same filter, from its own buffers.
perf_pid=
if [ -n "${PERF_SCRIPT:-}" ]; then
	pe=(-e 'timer:*')
	for e in softirq_entry softirq_exit softirq_raise; do
		[ -e "$I/events/irq/$e" ] && pe+=(-e "irq:$e" --filter 'vec == 1 || vec == 8')
	done
	# Each event perf can open (6.18 refuses irq_vectors:irq_work_exit to
	# perf, not to tracefs): the others are left out, and said.
	for d in "$I"/events/irq/irq_handler_* "$I"/events/irq_vectors/*_entry "$I"/events/irq_vectors/*_exit; do
		[ -e "$d/enable" ] || continue
		e=$(basename "$(dirname "$d")"):$(basename "$d")
		if perf record -q -a -o "$work/probe.data" -e "$e" -- true >/dev/null 2>&1; then
			pe+=(-e "$e")
		else
			echo "record-trace: perf cannot open $e: left out of $PERF_SCRIPT" >&2
		fi
	done
	perf record -q -a -o "$work/perf.data" "${pe[@]}" 2>"$work/perf.err" &
	perf_pid=$!
	sleep 1
fi

echo 1 > "$I/tracing_on"
end=$((SECONDS + secs))
case $workload in
sleep-net)
	# Sleepers of 1, 10 and 100 ms, and two HTTP clients with pauses.
	sleepers=()
	for period in 0.001 0.01 0.1; do
		(while [ $SECONDS -lt $end ]; do sleep $period; done) &
		sleepers+=($!)
	done
	python3 -m http.server 18080 --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
	srv=$!
	sleep 0.3
	for _ in 1 2; do
		python3 - "$secs" <<'PY' &
import http.client, sys, time
end = time.time() + float(sys.argv[1]) - 0.5
while time.time() < end:
    try:
        c = http.client.HTTPConnection("127.0.0.1", 18080, timeout=2)
        c.request("GET", "/"); c.getresponse().read(); c.close()
    except OSError:
        pass
    time.sleep(0.02)
PY
	done
	wait "${sleepers[@]}"
	kill $srv 2>/dev/null || true
	;;
idle-nohz)
	sleepers=()
	for period in 0.25 1; do
		(while [ $SECONDS -lt $end ]; do sleep $period; done) &
		sleepers+=($!)
	done
	wait "${sleepers[@]}"
	;;
load)
	python3 "$(dirname "$0")/load-workload.py" "$secs"
	;;
idle)
	# Sleepers only: three loops of sleeps, on whichever CPU the kernel
	# wakes them.
	sleepers=()
	for period in 0.01 0.1 1; do
		(while [ $SECONDS -lt $end ]; do sleep $period; done) &
		sleepers+=($!)
	done
	wait "${sleepers[@]}"
	;;
*)
	[ "$workload" = busy-idle ] && { nice -n 19 sh -c 'while :; do :; done' & }
	# Loopback HTTP with keep-alive clients: TCP retransmit/delack/keepalive timers.
	python3 -m http.server 18080 --bind 127.0.0.1 --directory "$work" >/dev/null 2>&1 &
	sleep 0.5
	clients=1 pause=0.05
	[ "$workload" = network ] && { clients=8 pause=0; head -c 4M /dev/urandom > "$work/big"; }
	pids=()
	for _ in $(seq $clients); do
		python3 - "$secs" "$pause" <<'PY' &
import http.client, sys, time
end = time.time() + float(sys.argv[1])
pause = float(sys.argv[2])
while time.time() < end:
    try:
        c = http.client.HTTPConnection("127.0.0.1", 18080, timeout=2)
        for _ in range(5):
            c.request("GET", "/"); c.getresponse().read()
        c.close()
    except OSError:
        pass
    time.sleep(pause)
PY
		pids+=($!)
	done
	if [ "$workload" = network ]; then
		# A bulk stream beside the request traffic.
		python3 - "$secs" <<'PY' &
import http.client, sys, time
end = time.time() + float(sys.argv[1])
while time.time() < end:
    try:
        c = http.client.HTTPConnection("127.0.0.1", 18080, timeout=2)
        c.request("GET", "/big"); c.getresponse().read(); c.close()
    except OSError:
        pass
PY
		pids+=($!)
	fi
	while [ $SECONDS -lt $end ]; do
		dd if=/dev/zero of="$work/f" bs=64k count=4 conv=fsync status=none
		sleep 0.$((RANDOM % 9 + 1))
	done
	wait "${pids[@]}" 2>/dev/null || true
	;;
esac
echo 0 > "$I/tracing_on"
if [ -n "$perf_pid" ]; then
	sleep 1
	kill -INT $perf_pid 2>/dev/null || { cat "$work/perf.err" >&2; exit 1; }
	wait $perf_pid 2>/dev/null || true
	perf script --ns -i "$work/perf.data" 2>/dev/null | gzip -9 > "$PERF_SCRIPT"
fi
cat "$I/trace" | gzip -9 > "$out"
if [ -n "${TRACE_DAT:-}" ]; then
	# Without -t: the instance's buffer alone, which is what the text holds.
	trace-cmd extract -B "$(basename "$I")" -o "$TRACE_DAT" >/dev/null 2>&1
fi
echo "record-trace: $(zcat "$out" | wc -l) lines -> $out ($(stat -c %s "$out") bytes)" >&2
