#!/usr/bin/python3
"""Plots of a merged sweep CSV (timersim merge SPEC -o sweep.csv).

Lines - a metric against an axis, one line per group:
    plot-sweep.py sweep.csv --x scale --y softirq_us --by scheme,hz -o lines.png
Rows at one x of a line that differ only in their seed are replicates: the
line goes through their mean, a band shows its 95% interval (Student t) and
dots the seeds; rows there that differ in anything else are refused (put
that column in --by or pick with --where). A column Y_lo/Y_hi beside Y (an
estimate's interval: the cost model's for softirq_ns, the calibration's
spread for softirq_us) is drawn as a hatched band; Y_is (softirq_ns_is)
labels the axis modelled or measured.
Heatmap - a metric over two axes; with --ratio A/B, the metric of scheme A
divided by that of scheme B in the same cell otherwise:
    plot-sweep.py sweep.csv --heatmap hz,scale --y softirq_us --ratio classic/v48 -o ratio.png

--where COL=VALUE keeps matching rows only (repeatable); --logx/--logy.
Columns are those of `timersim merge` (see docs/sweeps.md). Debian:
python3-matplotlib. Bad input (a CSV over 1 GiB or with a line over 64 KiB,
not UTF-8, a missing column, a malformed --heatmap or --ratio) exits 2 with
a message naming the file; values are drawn as plain text (a `$` is a
dollar, not mathtext).
"""
import argparse
import csv
import sys
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

import plot_shared  # noqa: E402


CSV_LIMIT = 1 << 30
LINE_LIMIT = 65536


def bad(msg):
    print("plot-sweep: " + msg, file=sys.stderr)
    sys.exit(2)


def plain(text, limit=48):
    return plot_shared.plain(text, limit)


def csv_lines(fh, path):
    try:
        yield from plot_shared.bounded_lines(fh, LINE_LIMIT, CSV_LIMIT)
    except plot_shared.line_too_long as e:
        bad("%s: line %d: longer than %d bytes: not a merged sweep CSV" % (path, e.line, LINE_LIMIT))
    except plot_shared.file_too_large:
        bad("%s: larger than %d MiB: not a merged sweep CSV" % (path, CSV_LIMIT >> 20))
    except plot_shared.not_utf8 as e:
        bad("%s: line %d: not UTF-8 text" % (path, e.line))


def number(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def load(path, where):
    try:
        with open(path, "rb") as fh:
            rows = list(csv.DictReader(csv_lines(fh, path)))
    except OSError as e:
        bad("%s: cannot read: %s" % (path, e.strerror))
    except csv.Error as e:
        bad("%s: not a CSV: %s" % (path, e))
    if not rows:
        bad(f"{path}: no rows")
    for w in where:
        col, _, val = w.partition("=")
        if col not in rows[0]:
            bad(f"--where {w}: no column {col}")
        rows = [r for r in rows if r[col] == val]
    return rows


def check(rows, *cols):
    for c in cols:
        if c not in rows[0]:
            bad(f"no column '{c}' (columns: {', '.join(rows[0])})")


def mean_interval(ys):
    """Mean and the Student-t 95% interval of the mean (None, None for one value)."""
    n = len(ys)
    m = sum(ys) / n
    if n < 2:
        return m, None, None
    sd = (sum((y - m) ** 2 for y in ys) / (n - 1)) ** 0.5
    h = plot_shared.t95(n - 1) * sd / n ** 0.5
    return m, m - h, m + h


# The columns that say what a cell is (timersim merge); rows at one point of
# a line may differ in the seed only.
IDENTITY = ["input_kind", "input", "kernel", "scheme", "params", "hz", "recorded_hz", "geometry", "expiries",
            "cpus", "scale", "seconds"]


def estimate_kind(rows, y):
    """What the y column's figures are, where the sweep says (Y_is:
    softirq_ns_is, "modelled" or "measured"): " (modelled)", " (measured)",
    " (modelled; measured where recorded)"; "" where it does not."""
    kinds = sorted({r.get(y + "_is") for r in rows if r.get(y + "_is")})
    if not kinds:
        return ""
    return " (" + ("; ".join(kinds).replace("measured; modelled", "modelled; measured where recorded")) + ")"


def lines(rows, a):
    """One line per --by group: at each x the mean over the rows there (the
    seeds), with a band of its 95% interval, never a line through single
    replicates; with the y column's _lo/_hi (the calibration's spread of an
    estimate), a lighter band of their means."""
    by = [b for b in a.by.split(",") if b]
    check(rows, a.x, a.y, *by)
    others = [c for c in IDENTITY if c in rows[0] and c not in by and c != a.x]
    lo_col, hi_col = a.y + "_lo", a.y + "_hi"
    calib = lo_col in rows[0] and hi_col in rows[0]
    groups = OrderedDict()
    for r in rows:
        x, y = number(r[a.x]), number(r[a.y])
        if x is None or y is None:
            continue
        pt = groups.setdefault(tuple(r[b] for b in by), OrderedDict()).setdefault(x, [])
        if pt and any(pt[0][0][c] != r[c] for c in others):
            diff = [c for c in others if pt[0][0][c] != r[c]]
            bad(f"rows at {a.x}={r[a.x]} of one line differ in {', '.join(diff)} (not only in seed): "
                f"add it to --by or pick one with --where")
        pt.append((r, y))
    if not groups:
        bad("nothing to plot")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    replicated = False
    for key, pts in groups.items():
        xs = sorted(pts)
        stats = [mean_interval([y for _, y in pts[x]]) for x in xs]
        label = plain(", ".join(f"{b}={k}" for b, k in zip(by, key)) or a.y, 80)
        line, = ax.plot(xs, [s[0] for s in stats], marker="o", label=label)
        color = line.get_color()
        if any(len(pts[x]) > 1 for x in xs):
            replicated = True
            band = [(x, s) for x, s in zip(xs, stats) if s[1] is not None]
            ax.fill_between([x for x, _ in band], [s[1] for _, s in band], [s[2] for _, s in band],
                            color=color, alpha=0.25, linewidth=0)
            for x in xs:	# the replicates themselves, as points
                ax.scatter([x] * len(pts[x]), [y for _, y in pts[x]], color=color, s=8, alpha=0.5)
        if calib:
            lo = [sum(number(r[lo_col]) or 0 for r, _ in pts[x]) / len(pts[x]) for x in xs]
            hi = [sum(number(r[hi_col]) or 0 for r, _ in pts[x]) / len(pts[x]) for x in xs]
            ax.fill_between(xs, lo, hi, color=color, alpha=0.08, linewidth=0, hatch="//")
    notes = []
    if replicated:
        notes.append("mean over seeds, band: 95% interval (Student t), dots: seeds")
    if calib:
        notes.append("hatched: the cost model's 95% interval" if a.y.endswith("_ns")
                     else "hatched: calibration's ns/unit range")
    ax.set_xlabel(plain(a.x))
    ax.set_ylabel(plain(a.y + estimate_kind(rows, a.y)))
    if a.logx:
        ax.set_xscale("log")
    if a.logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    title = plain(a.title or f"{a.y} by {a.x}", 80)
    ax.set_title("\n".join([title] + notes), fontsize=9)
    return fig


def heatmap(rows, a):
    if a.heatmap.count(",") != 1:
        bad(f"--heatmap {a.heatmap}: expected ROW,COL")
    rc, cc = a.heatmap.split(",")
    check(rows, rc, cc, a.y)
    cells = {}
    if a.ratio:
        if a.ratio.count("/") != 1:
            bad(f"--ratio {a.ratio}: expected A/B (two schemes)")
        num_s, den_s = a.ratio.split("/")
        check(rows, "scheme")
        parts = {}
        for r in rows:
            parts.setdefault((r[rc], r[cc]), {})[r["scheme"]] = number(r[a.y])
        for k, by in parts.items():
            if by.get(num_s) is not None and by.get(den_s):
                cells[k] = by[num_s] / by[den_s]
    else:
        for r in rows:
            v = number(r[a.y])
            if v is not None:
                cells[(r[rc], r[cc])] = v
    if not cells:
        bad("nothing to plot")
    order = lambda vals: sorted(set(vals), key=lambda v: (number(v) is None, number(v) or 0, v))
    rv, cv = order(k[0] for k in cells), order(k[1] for k in cells)
    grid = [[cells.get((r, c), float("nan")) for c in cv] for r in rv]
    fig, ax = plt.subplots(figsize=(1.4 * len(cv) + 3, 0.8 * len(rv) + 2))
    im = ax.imshow(grid, cmap="viridis", aspect="auto")
    if len(rv) * len(cv) > 10000:
        bad(f"--heatmap {a.heatmap}: {len(rv)} x {len(cv)} cells, more than a picture shows (10000)")
    ax.set_xticks(range(len(cv)), [plain(c, 24) for c in cv])
    ax.set_yticks(range(len(rv)), [plain(r, 24) for r in rv])
    ax.set_xlabel(plain(cc))
    ax.set_ylabel(plain(rc))
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if v == v:
                ax.text(j, i, f"{v:.2f}" if a.ratio else f"{v:.3g}", ha="center", va="center", color="w")
    fig.colorbar(im, ax=ax, label=plain(f"{a.y} {a.ratio}" if a.ratio else a.y, 80))
    ax.set_title(plain((a.title or (f"{a.y}: {a.ratio}" if a.ratio else a.y)) + estimate_kind(rows, a.y), 80))
    return fig


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv")
    p.add_argument("--x")
    p.add_argument("--y", required=True)
    p.add_argument("--by", default="scheme")
    p.add_argument("--heatmap", metavar="ROW,COL")
    p.add_argument("--ratio", metavar="A/B")
    p.add_argument("--where", action="append", default=[])
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--title")
    p.add_argument("-o", "--output", required=True)
    a = p.parse_args()
    rows = load(a.csv, a.where)
    if a.heatmap:
        fig = heatmap(rows, a)
    elif a.x:
        fig = lines(rows, a)
    else:
        bad("give --x (lines) or --heatmap ROW,COL")
    if not a.output:
        bad("-o: the file name is empty")
    fig.tight_layout()
    try:
        fig.savefig(a.output, dpi=110)
    except (OSError, ValueError) as e:
        print(f"plot-sweep: {a.output}: cannot write the picture: {e}", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
