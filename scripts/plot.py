#!/usr/bin/env python3
"""The pictures of `timersim plot` (tools/cmd_plot.cc runs this with Debian's
python3-matplotlib): PNG and SVG of a replay's JSON report.

  replay --json:   levels       enqueues, cascade calls and moves per wheel level
                   lateness     the distribution of simulated expiry lateness
                   callbacks    the callbacks with most cascade moves
                   moves        moves per tick over trace time (with --timeline
                                CSV of replay --timeline), else the distribution
                                of moves per tick
  compare --json:  schemes      every scheme's cost units side by side (plot
                                one scheme's replay --json for its own pictures)

Usage: plot.py REPORT.json -o DIR [--timeline TIMELINE.csv]
Bad input (not a timersim report, a broken CSV) exits 2 with a message; the
files appear in DIR only when every picture was drawn. Same input, same
bytes: the SVG hash salt is fixed and no date is written.
"""
import argparse
import csv
import json
import os
import shutil
import sys
import tempfile


def bad(msg):
    print("timersim: " + msg, file=sys.stderr)
    sys.exit(2)


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
})

REPORT_KEYS = ("input", "scheme", "cascade", "enqueue", "lateness", "costs", "functions")


def save(fig, out, name, written):
    fig.tight_layout()
    for ext, meta in (("png", {"Software": None}), ("svg", {"Date": None})):
        path = os.path.join(out, name + "." + ext)
        fig.savefig(path, metadata=meta)
        written.append(name + "." + ext)
    plt.close(fig)


def label(r):
    i = r["input"]
    return "%s, %s" % (os.path.basename(i["path"]), r["scheme"]["name"])


def bucket_label(b):
    return str(b["low"]) if b["low"] == b["high"] else "%d-%d" % (b["low"], b["high"])


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
    ax.set_xticks(list(x), levels)
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


def plot_callbacks(r, out, prefix, written, top=15):
    f = r["functions"][:top][::-1]
    fig, ax = plt.subplots(figsize=(7.5, 0.6 + 0.28 * max(len(f), 1)))
    y = range(len(f))
    h = 0.27
    ax.barh([i + h for i in y], [x["moved"] for x in f], h, label="moved by cascades", color="#b23a48")
    ax.barh(list(y), [x["started"] for x in f], h, label="started", color="#3a64b5")
    ax.barh([i - h for i in y], [x["expired"] for x in f], h, label="expired", color="#2f9e58")
    ax.set_yticks(list(y), [x["function"] for x in f])
    ax.set_xlabel("count (timers)")
    ax.set_xscale("symlog")
    ax.set_title("Top %d callbacks by cascade moves (%s)" % (len(f), label(r)))
    ax.legend(frameon=False, loc="lower right")
    save(fig, out, prefix + "callbacks", written)


def read_timeline(path):
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
    except OSError as e:
        bad("%s: cannot read: %s" % (path, e.strerror))
    need = ("cpu", "seconds", "moved", "ticks")
    series = {}
    for n, row in enumerate(rows, start=2):
        try:
            cpu, sec, moved = int(row["cpu"]), float(row["seconds"]), int(row["moved"])
        except (KeyError, TypeError, ValueError):
            bad("%s: line %d: not a timersim timeline row (columns %s)" % (path, n, ", ".join(need)))
        series.setdefault(cpu, ([], []))
        series[cpu][0].append(sec)
        series[cpu][1].append(moved)
    if not rows:
        bad("%s: no rows: not a timersim --timeline CSV" % path)
    return series


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
        ax.legend(frameon=False)
    else:
        b = r["cascade"]["moves_per_tick"]
        ax.bar([bucket_label(x) for x in b], [x["ticks"] for x in b], color="#e08a1e")
        ax.set_yscale("log")
        ax.set_xlabel("timers moved in one tick (power-of-two buckets)")
        ax.set_ylabel("ticks (log scale)")
        ax.set_title("Moves per tick (%s; give --timeline for moves over time)" % label(r))
    save(fig, out, prefix + "moves", written)


def plot_schemes(reports, out, written):
    units = ["insertions", "removals", "relinks", "slot_visits", "key_comparisons"]
    names = [r["scheme"]["name"] for r in reports]
    fig, ax = plt.subplots(figsize=(9, 3.8))
    w = 0.8 / len(units)
    for k, u in enumerate(units):
        ax.bar([i + (k - len(units) / 2 + 0.5) * w for i in range(len(names))],
               [max(r["costs"][u], 0) for r in reports], w, label=u.replace("_", " "))
    ax.set_xticks(list(range(len(names))), names)
    ax.set_yscale("symlog")
    ax.set_xlabel("scheme")
    ax.set_ylabel("operations (common cost units, log scale)")
    ax.set_title("The same trace through every scheme: %s" % os.path.basename(reports[0]["input"]["path"]))
    ax.legend(frameon=False, ncol=5, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    save(fig, out, "schemes", written)


def check_report(r, path, where):
    if not isinstance(r, dict) or any(k not in r for k in REPORT_KEYS):
        bad("%s: %s is not a timersim report (keys %s)" % (path, where, ", ".join(REPORT_KEYS)))


def main():
    ap = argparse.ArgumentParser(prog="timersim plot")
    ap.add_argument("report")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--timeline")
    a = ap.parse_args()
    try:
        with open(a.report, encoding="utf-8") as fh:
            doc = json.load(fh)
    except OSError as e:
        bad("%s: cannot read: %s" % (a.report, e.strerror))
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        bad("%s: not JSON: %s" % (a.report, e))
    if isinstance(doc, dict) and "schemes" in doc:
        reports = doc["schemes"]
        if not isinstance(reports, list) or not reports:
            bad("%s: \"schemes\" is not a list of reports" % a.report)
        for i, r in enumerate(reports):
            check_report(r, a.report, "schemes[%d]" % i)
    else:
        check_report(doc, a.report, "the document")
        reports = [doc]
    timeline = read_timeline(a.timeline) if a.timeline else None

    os.makedirs(a.output, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix=".plot-", dir=a.output)
    written = []
    try:
        compare = len(reports) > 1 or "schemes" in doc
        if compare:
            plot_schemes(reports, tmp, written)
        else:
            r = reports[0]
            plot_levels(r, tmp, "", written)
            plot_lateness(r, tmp, "", written)
            plot_callbacks(r, tmp, "", written)
            plot_moves(r, tmp, "", written, timeline)
        for name in written:
            os.replace(os.path.join(tmp, name), os.path.join(a.output, name))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for name in written:
        print(os.path.join(a.output, name))


if __name__ == "__main__":
    main()
