#!/usr/bin/python3
"""Do the TIMER softirq runs' long overheads fall while another vCPU was stolen?

    scripts/steal-windows.py [--threshold-us N] [--shift-us N] [--timersim BIN] TRACE.txt.gz ...

A CPU's stolen window is read from what the trace records, never from a
run's own length: its tick hrtimer (tick_nohz_handler, tick_sched_timer)
expiring later than the threshold (`now=` against the expires its last
hrtimer_start armed), from its due time in the trace clock (expires + the
clock offset, the least ts - now of any hrtimer expiry) to the CPU's first
recorded event after it: the CPU recorded nothing while its tick was
overdue. The threshold is the recording's own: its ticks' median lateness
+ 10 median absolute deviations, at least 50 us.

A TIMER run (softirq vec=1: its time less the hard irqs and callbacks
inside, as sim/measured/cpu_time.cc measures it) is flagged when another
CPU's window overlaps it; its excess is its overhead less the median of
the runs that ran as many callbacks. Per recording: the share of runs
flagged (the base rate) against the share of the long runs' (above the
99th percentile) and of all positive excess in them; per stretch (the runs
cut in 5 of equal count, as the cross-validation cuts them) the flagged
runs' excess, and with --timersim the replay's error and the error if the
model priced that excess exactly (fitted on the other stretches less
theirs, plus this one's: the best any steal term could do); and each
stretch held out of a least-squares fit on the others (run + callbacks),
without and with a steal term priced at the run's start: another CPU's
stolen ns left then, or one price per run begun in a window. --shift-us
moves every window (a placebo: a tick period keeps them on the ticks).
"""
import argparse
import bisect
import gzip
import json
import re
import statistics
import subprocess
import sys

LINE = re.compile(r"^\s*(.*?)-(\d+)\s+\[(\d+)\]\s+(\S+)\s+(\d+)\.(\d+):\s+(\w+):\s*(.*)$")
NOT_HARDIRQ = {"softirq_entry", "softirq_exit", "timer_expire_entry", "timer_expire_exit",
               "hrtimer_expire_entry", "hrtimer_expire_exit"}
TICKS = ("tick_nohz_handler", "tick_sched_timer")


def field(args, name):
    m = re.search(r"\b" + name + r"=(\S+)", args)
    return m.group(1) if m else None


def read(path):
    runs = []          # [cpu, entry, exit, overhead, callbacks]
    ticks = []         # [cpu, due_mono, now_mono, timer_entry_ts, lateness]
    events = {}        # cpu -> every event's ts, in order
    offsets = []       # ts - now at each hrtimer expiry: the trace clock's offset (min)
    armed = {}         # (cpu, hrtimer) -> expires
    timer_entry = {}   # cpu -> ts of its open local_timer_entry
    irq_depth = {}
    irq_from = {}
    run = {}           # cpu -> open TIMER run [entry, irq_ns, cb_ns, cbs]
    cb = {}            # cpu -> [entry, irq_ns at entry]
    irq_total = {}     # cpu -> hard irq ns so far
    opener = open
    if path.endswith(".gz"):
        opener = gzip.open
    with opener(path, "rt", errors="replace") as f:
        for line in f:
            m = LINE.match(line)
            if not m:
                continue
            cpu = int(m.group(3))
            ts = int(m.group(5)) * 1000000000 + int(m.group(6).ljust(9, "0")[:9])
            ev, args = m.group(7), m.group(8)
            if ev == "hrtimer_start":
                fn = field(args, "function")
                if fn in TICKS:
                    armed[(cpu, field(args, "hrtimer"))] = int(field(args, "expires"))
            elif ev == "hrtimer_cancel":
                armed.pop((cpu, field(args, "hrtimer")), None)
            elif ev == "hrtimer_expire_entry":
                now = int(field(args, "now"))
                offsets.append(ts - now)
                fn = field(args, "function")
                key = (cpu, field(args, "hrtimer"))
                if fn in TICKS and key in armed and cpu in timer_entry:
                    due = armed.pop(key)
                    ticks.append([cpu, due, now, timer_entry[cpu], now - due])
            if ev.endswith("_entry") and ev not in NOT_HARDIRQ:
                if irq_depth.get(cpu, 0) == 0:
                    irq_from[cpu] = ts
                irq_depth[cpu] = irq_depth.get(cpu, 0) + 1
                if ev == "local_timer_entry":
                    timer_entry[cpu] = ts
            elif ev.endswith("_exit") and ev not in NOT_HARDIRQ:
                if irq_depth.get(cpu, 0) > 0:
                    irq_depth[cpu] -= 1
                    if irq_depth[cpu] == 0:
                        irq_total[cpu] = irq_total.get(cpu, 0) + ts - irq_from[cpu]
                if ev == "local_timer_exit":
                    timer_entry.pop(cpu, None)
            elif ev == "softirq_entry" and field(args, "vec") == "1":
                run[cpu] = [ts, irq_total.get(cpu, 0), 0, 0]
            elif ev == "softirq_exit" and field(args, "vec") == "1" and cpu in run:
                e, irq0, cbns, cbs = run.pop(cpu)
                own = ts - e - (irq_total.get(cpu, 0) - irq0)
                runs.append([cpu, e, ts, own - cbns, cbs])
            elif ev == "timer_expire_entry" and cpu in run and irq_depth.get(cpu, 0) == 0:
                cb[cpu] = [ts, irq_total.get(cpu, 0)]
            elif ev == "timer_expire_exit" and cpu in cb:
                e, irq0 = cb.pop(cpu)
                run[cpu][2] += ts - e - (irq_total.get(cpu, 0) - irq0)
                run[cpu][3] += 1
            events.setdefault(cpu, []).append(ts)
    return runs, ticks, events, min(offsets) if offsets else 0


def threshold_of(ticks, threshold_us=0):
    """The lateness a tick must exceed to open a window: the recording's
    median + 10 median absolute deviations, at least 50 us."""
    if threshold_us:
        return threshold_us * 1000
    late = [t[4] for t in ticks]
    med = statistics.median(late)
    return max(50000, med + 10 * statistics.median(abs(x - med) for x in late))


def windows_of(ticks, events, offset, threshold):
    w = []
    for cpu, due, now, entry, late in ticks:
        if late > threshold:
            at = due + offset
            i = bisect.bisect_left(events[cpu], at)
            if i < len(events[cpu]):
                w.append((cpu, at, events[cpu][i]))
    return w


def overlap(run, windows):
    cpu, e, x = run[0], run[1], run[2]
    return sum(max(0, min(x, b) - max(e, a)) for c, a, b in windows if c != cpu)


def pct(a, b):
    return 100.0 * a / b if b else 0.0


def replay_blocks(timersim, path):
    """The replay's cross-validation: each stretch's measured and predicted ns."""
    out = subprocess.run([timersim, "replay", "--json", "-", path], check=True, capture_output=True, text=True)
    cv = json.loads(out.stdout)["modelled"]["cross_validation"]
    return [(b["verdict"]["measured_ns"], b["verdict"]["predicted_ns"]) for b in cv["blocks"]]


def analyse(path, threshold_us, shift_us, timersim):
    runs, ticks, events, offset = read(path)
    late = sorted(t[4] for t in ticks)
    med = statistics.median(late)
    threshold = threshold_of(ticks, threshold_us)
    windows = [(c, a + shift_us * 1000, b + shift_us * 1000) for c, a, b in windows_of(ticks, events, offset, threshold)]
    q = lambda p: late[min(len(late) - 1, int(len(late) * p))]
    span = runs[-1][2] - runs[0][1]
    stolen = sum(b - a for c, a, b in windows)
    print(f"== {path}: {len(runs)} TIMER runs; tick lateness us p50 {med/1e3:.1f} p99 {q(.99)/1e3:.1f} "
          f"max {late[-1]/1e3:.0f}; threshold {threshold/1e3:.0f} us: {len(windows)} windows, "
          f"{pct(stolen, span * 2):.2f}% of CPU time" + (f" (shifted {shift_us:+g} us)" if shift_us else ""))
    by_cbs = {}
    for r in runs:
        by_cbs.setdefault(min(r[4], 3), []).append(r[3])
    base = {k: statistics.median(v) for k, v in by_cbs.items()}
    for r in runs:
        r.append(r[3] - base[min(r[4], 3)])          # [5] excess
        r.append(overlap(r, windows))                  # [6] another CPU's stolen ns inside
    flagged = [r for r in runs if r[6] > 0]
    p99 = sorted(r[3] for r in runs)[int(len(runs) * .99)]
    long = [r for r in runs if r[3] > p99]
    lx = sum(r[5] for r in long)
    print(f"   flagged {len(flagged)} runs ({pct(len(flagged), len(runs)):.1f}%: the base rate); of the "
          f"{len(long)} above p99 ({p99/1e3:.0f} us) {sum(1 for r in long if r[6] > 0)} flagged, "
          f"{pct(sum(r[5] for r in long if r[6] > 0), lx):.0f}% of their excess; of all positive excess "
          f"{pct(sum(r[5] for r in flagged if r[5] > 0), sum(r[5] for r in runs if r[5] > 0)):.1f}%")
    n = len(runs)
    cut = [runs[n * b // 5:n * (b + 1) // 5] for b in range(5)]
    M = [sum(r[3] for r in s) for s in cut]
    S = [sum(r[5] for r in s if r[6] > 0) for s in cut]
    blocks = replay_blocks(timersim, path) if timersim else None
    for b in range(5):
        line = f"   stretch {b+1}: {M[b]/1e6:.3f} ms, flagged runs' excess {pct(S[b], M[b]):+.1f}%"
        if blocks:
            # The error if the model priced the flagged runs' excess exactly:
            # fitted on the other stretches less theirs, plus this one's.
            m, pr = blocks[b]
            o = [i for i in range(5) if i != b]
            k = sum(M[i] - S[i] for i in o) / sum(M[i] for i in o)
            line += f"; error {pct(pr - m, m):+.1f}%, priced exactly {pct(pr * k + S[b] - m, m):+.1f}%"
        print(line)
    (plain, _), (steal, c), (flag, f) = fitted_errors(runs, windows)
    print("   held out, fitted on run + callbacks: " + " ".join(f"{e:+.1f}" for e in plain))
    print(f"   + stolen ns left at its start ({c[2]/1e3:.3f} ns/ns): " + " ".join(f"{e:+.1f}" for e in steal))
    print(f"   + a run begun in a window ({f[2]:.0f} ns): " + " ".join(f"{e:+.1f}" for e in flag))


def at_start(run, windows):
    """Another CPU's stolen time left when the run began (not its own length)."""
    cpu, e = run[0], run[1]
    return sum(b - e for c, a, b in windows if c != cpu and a <= e < b)


def nonneg_fit(X, y):
    import numpy as np
    use = list(range(X.shape[1]))
    while True:
        c = np.zeros(X.shape[1])
        c[use] = np.linalg.lstsq(X[:, use], y, rcond=None)[0]
        neg = [i for i in use if c[i] < 0]
        if not neg:
            return c
        use.remove(neg[0])


def fitted_errors(runs, windows):
    """Each stretch held out of a least-squares fit on the others (overhead ~
    run + callbacks [+ another CPU's stolen us at the run's start]): the
    stretch errors without and with the steal term."""
    import numpy as np
    n = len(runs)
    X = np.array([[1.0, r[4], at_start(r, windows) / 1e3, at_start(r, windows) > 0] for r in runs])
    y = np.array([float(r[3]) for r in runs])
    out = []
    for cols in ([0, 1], [0, 1, 2], [0, 1, 3]):
        errs = []
        for b in range(5):
            held = np.zeros(n, bool)
            held[n * b // 5:n * (b + 1) // 5] = True
            c = nonneg_fit(X[~held][:, cols], y[~held])
            p, m = (X[held][:, cols] @ c).sum(), y[held].sum()
            errs.append(pct(p - m, m))
        out.append((errs, nonneg_fit(X[:, cols], y)))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threshold-us", type=float, default=0, help="instead of the recording's own")
    ap.add_argument("--shift-us", type=float, default=0, help="move every window (a placebo)")
    ap.add_argument("--timersim", help="the binary: each stretch's error, and with the flagged excess priced")
    ap.add_argument("traces", nargs="+")
    a = ap.parse_args()
    for p in a.traces:
        analyse(p, a.threshold_us, a.shift_us, a.timersim)


if __name__ == "__main__":
    sys.exit(main())
