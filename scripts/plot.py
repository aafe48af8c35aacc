#!/usr/bin/python3
"""The pictures of `timersim plot` (tools/cmd_plot.cc runs this with Debian's
python3-matplotlib): PNG and SVG of a replay's JSON report.

  replay --json:   levels       enqueues, cascade calls and moves per wheel level
                   lateness     the distribution of simulated expiry lateness
                   callbacks    the callbacks the scheme worked most for (cost
                                units in process context and in the softirq)
                   moves        moves per tick over trace time (with --timeline
                                CSV of replay --timeline), else the distribution
                                of moves per tick
                   work         the scheme's work per trace second, process
                                context and softirq (with --timeline), else
                                the report's split by cost unit
                   time         what the timer code cost per second, ms:
                                measured (above) and modelled with its
                                interval as a band (below), from the report's
                                time.per_second (per CPU up to 8 CPUs, else
                                all CPUs summed); only where the report has
                                seconds with time
  compare --json:  schemes      every scheme's cost units side by side (plot
                                one scheme's replay --json for its own pictures)
                   schemes-work every scheme's work in process context and in
                                the softirq
  --what-if-hz N --json (replay or compare): the pictures above for each side,
                   named recorded-* and what-if-*, and
                   what-if      each scheme's cost units as recorded and at HZ N
  merged sweep CSV (timersim merge):
                   sweep        per scheme, the timer softirq units (or its
                                estimated us with a calibration) of each cell
                                group, the mean over seeds with a 95% interval
  its summary (timersim merge --summary): the same picture, from the means and
                   intervals merge computed

Usage: plot.py REPORT.json|SWEEP.csv -o DIR [--timeline TIMELINE.csv]
Bad input (not a timersim report, a key of the wrong type, a broken or
non-UTF-8 CSV, a report over 64 MiB, a timeline over 1 GiB or with a line
over 4 KiB) exits 2 with a message naming the file and what is wrong; a
folder or picture that cannot be written exits 1. Names (callbacks, files,
schemes) are drawn as plain text - a `$` is a dollar sign, not mathtext -
and cut with an ellipsis (callbacks at 48 characters). A timeline of more rows than
20000 per CPU is drawn from the peak of each run of rows. The files appear
in DIR only when every picture was drawn. Same input, same bytes: the SVG
hash salt is fixed and no date is written.
"""
import argparse
import csv
import json
import os
import shutil
import sys
import tempfile
import warnings

try:
    import plot_shared
except ImportError:
    print("timersim: plot.py needs plot_shared.py beside it (make install puts both in share/timersim)",
          file=sys.stderr)
    sys.exit(1)

REPORT_LIMIT = 64 << 20         # bytes; a report is kilobytes to a few MB
TIMELINE_LIMIT = 1 << 30        # bytes; a timeline row is under 300 bytes
LINE_LIMIT = 4096               # bytes of one timeline line
POINTS_PER_CPU = 20000          # moves over time: beyond this, peaks of runs of rows
NAME_LIMIT = 48                 # characters of a callback name drawn
FILE_LIMIT = 32                 # characters of a file name in a title
LIST_LIMIT = 256                # levels, buckets, schemes in a report
TOP_CALLBACKS = 15              # callbacks drawn
COUNT_LIMIT = 2 ** 64           # report numbers are 64-bit counts


def bad(msg):
    print("timersim: " + msg, file=sys.stderr)
    sys.exit(2)


def cannot_write(msg):
    print("timersim: " + msg, file=sys.stderr)
    sys.exit(1)


try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("timersim: plot needs python3-matplotlib (scripts/setup.sh installs it)", file=sys.stderr)
    sys.exit(1)

matplotlib.rcParams.update({
    "svg.hashsalt": "timersim",
    "figure.dpi": 100,
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "text.usetex": False,
})
# A glyph the font lacks (a name in some script) is drawn as a box; the
# warning about it would name matplotlib's own files.
warnings.simplefilter("ignore")

REPORT_KEYS = ("input", "scheme", "cascade", "enqueue", "lateness", "costs", "functions")


def save(fig, out, name, written):
    fig.tight_layout()
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None})):
        path = os.path.join(out, name + "." + ext)
        fig.savefig(path, metadata=meta)
        written.append(name + "." + ext)
    plt.close(fig)


def plain(text, limit=NAME_LIMIT):
    return plot_shared.plain(text, limit)


def label(r):
    i = r["input"]
    return "%s, %s" % (plain(os.path.basename(i["path"]), FILE_LIMIT), plain(r["scheme"]["name"], 24))


def bucket_label(b):
    return "%d" % b["low"] if b["low"] == b["high"] else "%d-%d" % (b["low"], b["high"])


def plot_levels(r, out, prefix, written):
    levels = [e["level"] for e in r["enqueue"]["levels"]]
    enq = [e["count"] for e in r["enqueue"]["levels"]]
    cas = {c["level"]: c for c in r["cascade"]["levels"]}
    calls = [cas.get(l, {}).get("calls", 0) for l in levels]
    moved = [cas.get(l, {}).get("moved", 0) for l in levels]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = range(len(levels))
    w = 0.27
    ax.bar([i - w for i in x], enq, w, label="enqueued (starts and re-arms placed here)", color="#3a64b5")
    ax.bar(list(x), calls, w, label="cascade calls on the level", color="#e08a1e")
    ax.bar([i + w for i in x], moved, w, label="timers moved out by cascades", color="#b23a48")
    ax.set_xticks(list(x), [plain(l, 12) for l in levels])
    ax.set_xlabel("wheel level")
    ax.set_ylabel("count (timers or calls)")
    if max(enq + calls + moved + [0]) > 100 * max(1, min([v for v in enq + calls + moved if v] or [1])):
        ax.set_yscale("symlog")
    ax.set_title("Enqueues and cascades per level (%s)" % label(r))
    ax.legend(frameon=False)
    save(fig, out, prefix + "levels", written)


def plot_lateness(r, out, prefix, written):
    b = r["lateness"]["buckets"]
    fig, ax = plt.subplots(figsize=(7, 3.4))
    ax.bar([bucket_label(x) for x in b], [x["expiries"] for x in b], color="#2f9e58")
    ax.set_xlabel("lateness: jiffies after the requested expiry (power-of-two buckets)")
    ax.set_ylabel("simulated expiries")
    l = r["lateness"]
    ax.set_title("Lateness of %d expiries: %d on time, max %d jiffies (%s)" %
                 (l["expiries"], l["on_time"], l["max"], label(r)))
    save(fig, out, prefix + "lateness", written)


def plot_callbacks(r, out, prefix, written, top=TOP_CALLBACKS):
    """The report ranks callbacks by the scheme's work for them (process +
    softirq cost units), so that a wheel that never cascades shows its hot
    spots too; each bar says its expiries, wakeups and cascade moves."""
    f = r["functions"][:top][::-1]
    fig, ax = plt.subplots(figsize=(8.5, 0.9 + 0.3 * max(len(f), 1)))
    y = list(range(len(f)))
    proc = [x["process_units"] for x in f]
    soft = [x["softirq_units"] for x in f]
    ax.barh(y, proc, 0.6, label="process context (start, cancel, re-arm)", color="#3a64b5")
    ax.barh(y, soft, 0.6, left=proc, label="softirq (expiry, cascades, visits)", color="#b23a48")
    for i, x in enumerate(f):
        ax.annotate(" %d expired, %d wakeups, %d moved" % (x["expired"], x["wakeups"], x["moved"]),
                    (proc[i] + soft[i], i), va="center", fontsize=7, color="#444444")
    ax.set_yticks(y, [plain(x["function"]) for x in f])
    ax.set_xlabel("the scheme's work (cost units)")
    ax.set_xlim(0, 1.45 * max([p + q for p, q in zip(proc, soft)] + [1]))
    ax.set_title("Top %d callbacks by the scheme's work\n(%s)" % (len(f), label(r)))
    ax.legend(frameon=False, loc="lower right")
    save(fig, out, prefix + "callbacks", written)


def timeline_lines(fh, path):
    """The lines of a timeline, decoded, each and all of them bounded."""
    try:
        yield from plot_shared.bounded_lines(fh, LINE_LIMIT, TIMELINE_LIMIT)
    except plot_shared.line_too_long as e:
        bad("%s: line %d: longer than %d bytes: not a timersim --timeline CSV" % (path, e.line, LINE_LIMIT))
    except plot_shared.file_too_large:
        bad("%s: larger than %d MiB: coarsen it with replay --interval" % (path, TIMELINE_LIMIT >> 20))
    except plot_shared.not_utf8 as e:
        bad("%s: line %d: not UTF-8 text (byte %d of the line)" % (path, e.line, e.byte))


class moves_series:
    """One CPU's (seconds, moved) points, at most 2 x POINTS_PER_CPU of them:
    beyond that each point stands for a run of `stride` rows - its first
    time and its most moves - so that the peaks stay drawn."""

    def __init__(self):
        self.xs, self.ys = [], []
        self.stride, self.run = 1, 0

    def add(self, sec, moved):
        if self.run:
            self.ys[-1] = max(self.ys[-1], moved)
        else:
            self.xs.append(sec)
            self.ys.append(moved)
        self.run = (self.run + 1) % self.stride
        if self.run == 0 and len(self.xs) >= 2 * POINTS_PER_CPU:
            self.xs = self.xs[0::2]
            self.ys = [max(self.ys[i:i + 2]) for i in range(0, len(self.ys), 2)]
            self.stride *= 2


def read_timeline(path):
    """Per CPU the moves over time, and per whole trace second the work in
    process context and in the softirq (all CPUs; empty when the CSV has
    no such columns)."""
    need = ("cpu", "seconds", "moved", "ticks")
    series = {}
    work = {}
    rows = 0
    try:
        with open(path, "rb") as fh:
            reader = csv.DictReader(timeline_lines(fh, path))
            for n, row in enumerate(reader, start=2):
                try:
                    cpu, sec, moved = int(row["cpu"]), float(row["seconds"]), int(row["moved"])
                    ok = 0 <= cpu < 65536 and 0 <= sec < 1e12 and 0 <= moved < COUNT_LIMIT
                except (KeyError, TypeError, ValueError):
                    ok = False
                if not ok:
                    bad("%s: line %d: not a timersim timeline row (columns %s)" % (path, n, ", ".join(need)))
                series.setdefault(cpu, moves_series()).add(sec, moved)
                if row.get("softirq_units") is not None:
                    try:
                        p, q = int(row["process_units"]), int(row["softirq_units"])
                    except (KeyError, TypeError, ValueError):
                        p = q = -1
                    if not (0 <= p < COUNT_LIMIT and 0 <= q < COUNT_LIMIT):
                        bad("%s: line %d: process_units, softirq_units: not counts" % (path, n))
                    w = work.setdefault(int(sec), [0, 0])
                    w[0] += p
                    w[1] += q
                rows += 1
    except OSError as e:
        bad("%s: cannot read: %s" % (path, e.strerror))
    except csv.Error as e:
        bad("%s: not a CSV: %s" % (path, e))
    if not rows:
        bad("%s: no rows: not a timersim --timeline CSV" % path)
    return {cpu: (s.xs, s.ys) for cpu, s in series.items()}, work


def plot_moves(r, out, prefix, written, timeline):
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if timeline:
        for cpu in sorted(timeline):
            xs, ys = timeline[cpu]
            pts = sorted(zip(xs, ys))
            ax.plot([p[0] for p in pts], [p[1] for p in pts], lw=0.8, label="CPU %d" % cpu,
                    drawstyle="steps-post")
        ax.set_xlabel("trace time (s)")
        ax.set_ylabel("timers moved by cascades\n(per timeline row)")
        ax.set_title("Cascade moves over time (%s)" % label(r))
        if len(timeline) <= 16:
            ax.legend(frameon=False)
    else:
        b = r["cascade"]["moves_per_tick"]
        ax.bar([bucket_label(x) for x in b], [x["ticks"] for x in b], color="#e08a1e")
        ax.set_yscale("log")
        ax.set_xlabel("timers moved in one tick (power-of-two buckets)")
        ax.set_ylabel("ticks (log scale)")
        ax.set_title("Moves per tick (%s; give --timeline for moves over time)" % label(r))
    save(fig, out, prefix + "moves", written)


def plot_work(r, out, prefix, written, work):
    fig, ax = plt.subplots(figsize=(8, 3.4))
    if work:
        secs = sorted(work)
        ax.bar(secs, [work[t][0] for t in secs], 0.9, align="edge",
               label="process context (start, cancel, re-arm)", color="#3a64b5")
        ax.bar(secs, [work[t][1] for t in secs], 0.9, align="edge", bottom=[work[t][0] for t in secs],
               label="softirq (expiry, cascades, visits)", color="#b23a48")
        ax.set_xlabel("trace time (s)")
        ax.set_ylabel("the scheme's work\n(cost units per second)")
        ax.set_title("Work per second, all CPUs (%s)" % label(r))
    else:
        units = ["insertions", "removals", "relinks", "slot_visits", "key_comparisons"]
        x = list(range(len(units)))
        w = r["work"]
        ax.bar([i - 0.2 for i in x], [w["process"][u] for u in units], 0.4, label="process context",
               color="#3a64b5")
        ax.bar([i + 0.2 for i in x], [w["softirq"][u] for u in units], 0.4, label="softirq", color="#b23a48")
        ax.set_xticks(x, [u.replace("_", " ") for u in units])
        ax.set_ylabel("cost units")
        ax.set_title("Work by context (%s; give --timeline for work over time)" % label(r))
    ax.legend(frameon=False)
    save(fig, out, prefix + "work", written)


CPU_LINES = 8                   # time per second: per CPU up to this many, else summed


def time_seconds(r, where):
    """The report's time.per_second, checked: per (cpu, trace second) the
    measured ns and the modelled (ns, low, high), None where not known."""
    t = r.get("time")
    if t is None:
        return []
    rows = need(need(r, "time", where, "object"), "per_second", where + ".time", "list")
    out = []
    for n, e in enumerate(rows):
        w = "%s.time.per_second[%d]" % (where, n)
        cpu, sec = need(e, "cpu", w, "number"), need(e, "seconds", w, "number")
        measured = None if e.get("measured_ns") is None else need(e, "measured_ns", w, "number")
        modelled = None
        if e.get("modelled_ns") is not None:
            modelled = tuple(need(e, k, w, "number") for k in ("modelled_ns", "modelled_low_ns", "modelled_high_ns"))
        out.append((int(cpu), float(sec), measured, modelled))
    return out


def plot_time(r, out, prefix, written, where="the report"):
    """Measured and modelled timer time per second, drawn apart."""
    rows = time_seconds(r, where)
    if not rows:
        return
    cpus = sorted({c for c, _, _, _ in rows})
    per_cpu = len(cpus) <= CPU_LINES
    series = {}
    for cpu, sec, m, mod in rows:
        k = cpu if per_cpu else "all"
        s = series.setdefault(k, {})
        v = s.setdefault(sec, [None, None])
        if m is not None:
            v[0] = (v[0] or 0) + m
        if mod is not None:
            old = v[1] or (0, 0, 0)
            v[1] = tuple(a + b for a, b in zip(old, mod))
    fig, (top, low) = plt.subplots(2, 1, figsize=(8, 5.6), sharex=True)
    drew_measured = drew_modelled = False
    for k in sorted(series, key=str):
        name = "CPU %d" % k if per_cpu else "all CPUs"
        pts = sorted(series[k].items())
        ms = [(t, v[0] / 1e6) for t, v in pts if v[0] is not None]
        if ms:
            top.plot([p[0] for p in ms], [p[1] for p in ms], lw=1.0, marker=".", label=name)
            drew_measured = True
        md = [(t, v[1]) for t, v in pts if v[1] is not None]
        if md:
            xs = [p[0] for p in md]
            line, = low.plot(xs, [p[1][0] / 1e6 for p in md], lw=1.0, marker=".", label=name)
            low.fill_between(xs, [p[1][1] / 1e6 for p in md], [p[1][2] / 1e6 for p in md],
                             color=line.get_color(), alpha=0.2, lw=0)
            drew_modelled = True
    top.set_ylabel("measured\n(ms in the second)")
    top.set_title("Timer time per second, %s (%s)" % ("per CPU" if per_cpu else "all CPUs", label(r)))
    if drew_measured:
        top.legend(frameon=False, fontsize="small")
    else:
        top.text(0.5, 0.5, "not recorded (no softirq or timer interrupt events)", ha="center",
                 va="center", transform=top.transAxes)
    top.text(0.0, 1.0, "TIMER + HRTIMER softirq overhead, callbacks in them, timer interrupts",
             transform=top.transAxes, fontsize="x-small", va="bottom")
    low.set_ylabel("modelled\n(ms in the second)")
    low.set_xlabel("trace time (s), each point the second it begins")
    low.text(0.0, 1.0, "starts and cancels + the scheme's softirq work, by the cost model; "
             "band: its interval", transform=low.transAxes, fontsize="x-small", va="bottom")
    if drew_modelled:
        low.legend(frameon=False, fontsize="small")
    low.set_ylim(bottom=0)
    top.set_ylim(bottom=0)
    fig.tight_layout()
    save(fig, out, prefix + "time", written)


def plot_schemes(reports, out, written, prefix=""):
    units = ["insertions", "removals", "relinks", "slot_visits", "key_comparisons"]
    names = [plain(r["scheme"]["name"], 24) for r in reports]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    w = 0.8 / len(units)
    for k, u in enumerate(units):
        ax.bar([i + (k - len(units) / 2 + 0.5) * w for i in range(len(names))],
               [max(r["costs"][u], 0) for r in reports], w, label=u.replace("_", " "))
    ax.set_xticks(list(range(len(names))), names)
    ax.set_yscale("symlog")
    ax.set_xlabel("scheme")
    ax.set_ylabel("operations (common cost units, log scale)")
    ax.set_title("The same trace through every scheme: %s" % plain(os.path.basename(reports[0]["input"]["path"]), FILE_LIMIT))
    ax.legend(frameon=False, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    save(fig, out, prefix + "schemes", written)

    # Where each scheme's work runs: process context and softirq.
    fig, ax = plt.subplots(figsize=(9, 3.6))
    x = list(range(len(names)))
    ax.bar([i - 0.2 for i in x], [r["work"]["process"]["units"] for r in reports], 0.4,
           label="process context (start, cancel, re-arm)", color="#3a64b5")
    ax.bar([i + 0.2 for i in x], [r["work"]["softirq"]["units"] for r in reports], 0.4,
           label="softirq (expiry, cascades, visits)", color="#b23a48")
    ax.set_xticks(x, names)
    nonzero = [r["work"][c]["units"] for r in reports for c in ("process", "softirq") if r["work"][c]["units"]]
    if nonzero:
        # Log scale from a decade under the least work: a 0 draws no bar.
        ax.set_yscale("log")
        ax.set_ylim(bottom=10 ** (len(str(min(nonzero))) - 2))
    ax.set_xlabel("scheme")
    ax.set_ylabel("work (cost units, log scale)")
    ax.set_title("Process context and softirq work: %s" % plain(os.path.basename(reports[0]["input"]["path"]), FILE_LIMIT))
    ax.legend(frameon=False)
    save(fig, out, prefix + "schemes-work", written)


def plot_what_if(sides, out, written):
    """Cost units as recorded beside at the what-if HZ: per kind of unit for
    one scheme (replay), per scheme in all (compare)."""
    (_, rec), (_, wif) = sides
    units = ["insertions", "removals", "relinks", "slot_visits", "key_comparisons"]
    if len(rec) == 1:
        labels = [u.replace("_", " ") for u in units]
        a = [max(rec[0]["costs"][u], 0) for u in units]
        b = [max(wif[0]["costs"][u], 0) for u in units]
        what = "%s, by kind of unit" % plain(rec[0]["scheme"]["name"], 24)
    else:
        labels = [plain(r["scheme"]["name"], 24) for r in rec]
        a = [sum(max(r["costs"][u], 0) for u in units) for r in rec]
        b = [sum(max(r["costs"][u], 0) for u in units) for r in wif]
        what = "all cost units per scheme"
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(labels) + 2), 3.8))
    xs = list(range(len(labels)))
    ax.bar([x - 0.2 for x in xs], a, 0.4, label="recorded")
    ax.bar([x + 0.2 for x in xs], b, 0.4, label="what-if HZ")
    ax.set_xticks(xs, labels, rotation=30 if len(labels) > 6 else 0, ha="right" if len(labels) > 6 else "center")
    ax.set_yscale("symlog")
    ax.set_ylabel("operations (cost units, log scale)")
    ax.legend(frameon=False)
    ax.set_title("Recorded and what-if HZ: %s (%s)" % (plain(os.path.basename(rec[0]["input"]["path"]), FILE_LIMIT),
                                                      what))
    save(fig, out, "what-if", written)


SWEEP_WHAT = ["input_kind", "input", "kernel", "params", "hz", "recorded_hz", "geometry", "expiries", "cpus",
              "scale", "seconds"]
SWEEP_CELLS = 60                # cell groups drawn


def read_sweep(path, data, summary=False):
    """The rows of a merged sweep CSV, or of its summary (one row per
    cell group and scheme: n, and each figure's _mean, _ci_lo, _ci_hi)."""
    try:
        rows = list(csv.DictReader(data.decode("utf-8").splitlines()))
    except UnicodeDecodeError as e:
        bad("%s: not UTF-8 text at byte %d" % (path, e.start + 1))
    except csv.Error as e:
        bad("%s: not a CSV: %s" % (path, e))
    if summary:
        need_cols = ["scheme", "n", "softirq_units_mean", "softirq_units_ci_lo", "softirq_units_ci_hi"] + SWEEP_WHAT
        what = "a summary CSV of timersim merge --summary"
    else:
        need_cols = ["scheme", "seed", "softirq_units"] + SWEEP_WHAT
        what = "a merged sweep CSV of timersim merge"
    if not rows or any(c not in rows[0] for c in need_cols):
        bad("%s: not %s (columns %s)" % (path, what, ", ".join(need_cols)))
    return rows


def sweep_value(path, row, column):
    try:
        return float(row[column])
    except ValueError:
        bad("%s: %s '%s' is not a number" % (path, column, row[column]))


def sweep_stats(rows, path, y, varying, summary):
    """Per cell group and scheme: (mean, half the 95% interval, n) - over
    the seeds of a merged CSV, or as a summary CSV states them."""
    values, stats, schemes = {}, {}, []
    for r in rows:
        g = tuple(r[c] for c in varying)
        if r["scheme"] not in schemes:
            schemes.append(r["scheme"])
        if summary:
            lo, hi = r[y + "_ci_lo"], r[y + "_ci_hi"]
            h = (sweep_value(path, r, y + "_ci_hi") - sweep_value(path, r, y + "_ci_lo")) / 2 if lo and hi else 0.0
            stats.setdefault(g, {})[r["scheme"]] = (sweep_value(path, r, y + "_mean"), h, int(sweep_value(path, r, "n")))
        else:
            values.setdefault(g, {}).setdefault(r["scheme"], []).append(sweep_value(path, r, y))
    for g, per in values.items():
        for scheme, vals in per.items():
            n = len(vals)
            m = sum(vals) / n
            h = 0.0
            if n > 1:
                sd = (sum((v - m) ** 2 for v in vals) / (n - 1)) ** 0.5
                h = plot_shared.t95(n - 1) * sd / n ** 0.5
            stats.setdefault(g, {})[scheme] = (m, h, n)
    return stats, schemes


def plot_sweep(rows, path, out, written, summary=False):
    """Bars per cell group (what differs between the groups, the seed
    aside) and scheme: the mean over seeds, a 95% interval (Student t)
    where there are several."""
    suffix = "_mean" if summary else ""
    y = "softirq_us" if all(r.get("softirq_us" + suffix) for r in rows) else "softirq_units"
    varying = [c for c in SWEEP_WHAT if len({r[c] for r in rows}) > 1]
    groups, schemes = sweep_stats(rows, path, y, varying, summary)
    keys = list(groups)[:SWEEP_CELLS]
    fig, ax = plt.subplots(figsize=(max(6, 0.5 * len(keys) * len(schemes) + 2), 4.2))
    w = 0.8 / len(schemes)
    for k, scheme in enumerate(schemes[:LIST_LIMIT]):
        means, errs, xs = [], [], []
        for i, g in enumerate(keys):
            if scheme not in groups[g]:
                continue
            m, h, _ = groups[g][scheme]
            xs.append(i + (k - len(schemes) / 2 + 0.5) * w)
            means.append(m)
            errs.append(h)
        ax.bar(xs, means, w, yerr=errs, capsize=2, label=plain(scheme, 24))
    names = [plain(", ".join("%s=%s" % (c, os.path.basename(v) if c == "input" else v)
                             for c, v in zip(varying, g)) or "all", 40) for g in keys]
    ax.set_xticks(list(range(len(keys))), names, rotation=30, ha="right", fontsize=7)
    ax.set_ylabel(plain(y) + (" (mean over seeds, 95% interval)" if any(
        s[2] > 1 for g in groups.values() for s in g.values()) else ""))
    ax.legend(frameon=False)
    more = " (first %d groups)" % SWEEP_CELLS if len(groups) > SWEEP_CELLS else ""
    ax.set_title("Sweep %s: %s per cell%s" % (plain(os.path.basename(path), FILE_LIMIT), plain(y), more))
    save(fig, out, "sweep", written)


class not_a_report(Exception):
    pass


def need(obj, key, where, kind):
    """obj[key], checked to be of `kind`: "number", "text", "label" (text or
    number), "list" or "object"."""
    if not isinstance(obj, dict):
        raise not_a_report("%s: expected an object" % where)
    if key not in obj:
        raise not_a_report("%s.%s: missing" % (where, key))
    v = obj[key]
    number = isinstance(v, (int, float)) and not isinstance(v, bool)
    if kind == "number" and not (number and -COUNT_LIMIT < v < COUNT_LIMIT):
        raise not_a_report("%s.%s: expected a number below 2^64, got %s" % (where, key, what_is(v)))
    if kind == "text" and not isinstance(v, str):
        raise not_a_report("%s.%s: expected a string, got %s" % (where, key, what_is(v)))
    if kind == "label" and not (isinstance(v, str) or (number and -COUNT_LIMIT < v < COUNT_LIMIT)):
        raise not_a_report("%s.%s: expected a name or a number, got %s" % (where, key, what_is(v)))
    if kind == "list" and not isinstance(v, list):
        raise not_a_report("%s.%s: expected a list, got %s" % (where, key, what_is(v)))
    if kind == "object" and not isinstance(v, dict):
        raise not_a_report("%s.%s: expected an object, got %s" % (where, key, what_is(v)))
    return v


def what_is(v):
    if isinstance(v, bool):
        return "true/false"
    if isinstance(v, int) and not -COUNT_LIMIT < v < COUNT_LIMIT:
        return "a number of %d digits" % len(str(abs(v)))
    if isinstance(v, (int, float)):
        return "the number %.6g" % v
    if isinstance(v, list):
        return "a list of %d entries" % len(v)
    return {str: "a string", dict: "an object", type(None): "null"}.get(type(v), "something else")


def entries(obj, key, where, fields, drawn=LIST_LIMIT):
    """The list obj[key], each entry (of the first `drawn`, the only ones
    drawn) an object with `fields` {name: kind}; a bar per entry: at most
    LIST_LIMIT of them unless only the first `drawn` are drawn."""
    out = need(obj, key, where, "list")
    if drawn == LIST_LIMIT and len(out) > LIST_LIMIT:
        raise not_a_report("%s.%s: %d entries, more than a report has (%d)" % (where, key, len(out), LIST_LIMIT))
    for n, e in enumerate(out[:drawn]):
        for f, kind in fields.items():
            need(e, f, "%s.%s[%d]" % (where, key, n), kind)
    return out


def check_report(r, where):
    """Every key and type the pictures read, so that a report of another
    shape is refused with its path instead of failing half drawn."""
    if not isinstance(r, dict) or any(k not in r for k in REPORT_KEYS):
        raise not_a_report("%s is not a timersim report (keys %s)" % (where, ", ".join(REPORT_KEYS)))
    need(need(r, "input", where, "object"), "path", where + ".input", "text")
    need(need(r, "scheme", where, "object"), "name", where + ".scheme", "text")
    w = where + ".enqueue"
    entries(need(r, "enqueue", where, "object"), "levels", w, {"level": "label", "count": "number"})
    w = where + ".cascade"
    c = need(r, "cascade", where, "object")
    entries(c, "levels", w, {"level": "label", "calls": "number", "moved": "number"})
    entries(c, "moves_per_tick", w, {"low": "number", "high": "number", "ticks": "number"})
    w = where + ".lateness"
    l = need(r, "lateness", where, "object")
    entries(l, "buckets", w, {"low": "number", "high": "number", "expiries": "number"})
    for k in ("expiries", "on_time", "max"):
        need(l, k, w, "number")
    costs = need(r, "costs", where, "object")
    for k in ("insertions", "removals", "relinks", "slot_visits", "key_comparisons"):
        need(costs, k, where + ".costs", "number")
    work = need(r, "work", where, "object")
    for ctx in ("process", "softirq"):
        for k in ("units", "insertions", "removals", "relinks", "slot_visits", "key_comparisons"):
            need(need(work, ctx, where + ".work", "object"), k, where + ".work." + ctx, "number")
    # Callbacks: the report lists them most work first; the top ones are drawn.
    entries(r, "functions", where, {"function": "text", "moved": "number", "started": "number",
                                    "expired": "number", "wakeups": "number", "process_units": "number",
                                    "softirq_units": "number"}, drawn=TOP_CALLBACKS)
    time_seconds(r, where)      # the time per second, where the report has it


def read_input(path):
    """The bytes of REPORT, read once (a FIFO is read only once), bounded."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(REPORT_LIMIT + 1)
    except OSError as e:
        bad("%s: cannot read: %s" % (path, e.strerror))
    if len(data) > REPORT_LIMIT:
        bad("%s: larger than %d MiB: not a timersim report" % (path, REPORT_LIMIT >> 20))
    return data


def read_report(path, data):
    """The report's reports (one, or compare's list), checked."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        bad("%s: not JSON: not UTF-8 text at byte %d" % (path, e.start + 1))

    def no_constant(name):
        raise ValueError("%s is not a JSON number" % name)
    try:
        doc = json.loads(text, parse_constant=no_constant)
    except RecursionError:
        bad("%s: not JSON: nested too deeply" % path)
    except ValueError as e:
        bad("%s: not JSON: %s" % (path, e))
    try:
        if isinstance(doc, dict) and set(doc) == {"recorded", "what_if"}:
            sides = []
            for side in ("recorded", "what_if"):
                d = doc[side]
                if isinstance(d, dict) and "schemes" in d:
                    reports = d["schemes"]
                    if not isinstance(reports, list) or not reports or len(reports) > LIST_LIMIT:
                        raise not_a_report("%s.schemes is not a list of 1 to %d reports" % (side, LIST_LIMIT))
                else:
                    reports = [d]
                for i, r in enumerate(reports):
                    check_report(r, "%s[%d]" % (side, i))
                sides.append((side.replace("_", "-"), reports))
            if len(sides[0][1]) != len(sides[1][1]):
                raise not_a_report("recorded and what_if hold different numbers of schemes")
            return sides, "what-if"
        if isinstance(doc, dict) and "schemes" in doc:
            reports = doc["schemes"]
            if not isinstance(reports, list) or not reports or len(reports) > LIST_LIMIT:
                raise not_a_report("\"schemes\" is not a list of 1 to %d reports" % LIST_LIMIT)
            for i, r in enumerate(reports):
                check_report(r, "schemes[%d]" % i)
            return reports, "compare"
        check_report(doc, "the document")
        return [doc], "replay"
    except not_a_report as e:
        bad("%s: %s" % (path, e))


def main():
    ap = argparse.ArgumentParser(prog="timersim plot")
    ap.add_argument("report")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--timeline")
    a = ap.parse_args()
    if not a.output:
        bad("-o: the folder name is empty")
    data = read_input(a.report)
    if data.startswith(b"id,index,input_kind,"):	# timersim merge's header
        if a.timeline:
            bad("--timeline goes with a replay's JSON report, not a sweep CSV")
        rows, kind = read_sweep(a.report, data), "sweep"
    elif data.startswith(b"input_kind,input,") and b",n,seeds," in data.split(b"\n", 1)[0]:
        # timersim merge --summary's header
        if a.timeline:
            bad("--timeline goes with a replay's JSON report, not a sweep CSV")
        rows, kind = read_sweep(a.report, data, summary=True), "sweep-summary"
    else:
        reports, kind = read_report(a.report, data)
    if a.timeline and kind != "replay":
        bad("--timeline goes with a replay's JSON report (replay --json without --what-if-hz)")
    timeline, work = read_timeline(a.timeline) if a.timeline else (None, None)

    try:
        os.makedirs(a.output, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=".plot-", dir=a.output)
    except OSError as e:
        cannot_write("%s: cannot create the folder: %s" % (a.output, e.strerror))
    written = []
    try:
        if kind in ("sweep", "sweep-summary"):
            plot_sweep(rows, a.report, tmp, written, summary=kind == "sweep-summary")
        elif kind == "what-if":
            for side, side_reports in reports:
                if len(side_reports) > 1:
                    plot_schemes(side_reports, tmp, written, side + "-")
                else:
                    r = side_reports[0]
                    plot_levels(r, tmp, side + "-", written)
                    plot_lateness(r, tmp, side + "-", written)
                    plot_callbacks(r, tmp, side + "-", written)
                    plot_moves(r, tmp, side + "-", written, None)
                    plot_work(r, tmp, side + "-", written, None)
                    plot_time(r, tmp, side + "-", written, side)
            plot_what_if(reports, tmp, written)
        elif kind == "compare":
            plot_schemes(reports, tmp, written)
        else:
            r = reports[0]
            plot_levels(r, tmp, "", written)
            plot_lateness(r, tmp, "", written)
            plot_callbacks(r, tmp, "", written)
            plot_moves(r, tmp, "", written, timeline)
            plot_work(r, tmp, "", written, work)
            plot_time(r, tmp, "", written)
        for name in written:
            os.replace(os.path.join(tmp, name), os.path.join(a.output, name))
    except OSError as e:
        cannot_write("%s: cannot write the pictures: %s" % (a.output, e.strerror))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for name in written:
        print(os.path.join(a.output, name))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # noqa: BLE001
        # What the checks above did not foresee: a message, not a traceback.
        cannot_write("plot: cannot draw the pictures of %s: %s" % (sys.argv[1] if len(sys.argv) > 1 else "the report", e))
