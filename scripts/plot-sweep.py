#!/usr/bin/python3
"""Plots of a merged sweep CSV (timersim merge SPEC -o sweep.csv).

Lines - a metric against an axis, one line per group:
    plot-sweep.py sweep.csv --x scale --y softirq_us --by scheme,hz -o lines.png
Heatmap - a metric over two axes; with --ratio A/B, the metric of scheme A
divided by that of scheme B in the same cell otherwise:
    plot-sweep.py sweep.csv --heatmap hz,scale --y softirq_us --ratio classic/v48 -o ratio.png

--where COL=VALUE keeps matching rows only (repeatable); --logx/--logy.
Columns are those of `timersim merge` (see README: Sweeps). Debian:
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


CSV_LIMIT = 1 << 30
LINE_LIMIT = 65536


def bad(msg):
    print("plot-sweep: " + msg, file=sys.stderr)
    sys.exit(2)


def plain(text, limit=48):
    """A value as drawn: one line, cut with an ellipsis, `$` escaped."""
    text = "".join(ch if ch.isprintable() else "?" for ch in str(text))
    if len(text) > limit:
        text = text[:limit - 1] + "\u2026"
    return text.replace("$", "\\$")


def csv_lines(fh, path):
    total, n = 0, 0
    while True:
        raw = fh.readline(LINE_LIMIT + 1)
        if not raw:
            return
        n += 1
        total += len(raw)
        if len(raw) > LINE_LIMIT:
            bad("%s: line %d: longer than %d bytes: not a merged sweep CSV" % (path, n, LINE_LIMIT))
        if total > CSV_LIMIT:
            bad("%s: larger than %d MiB: not a merged sweep CSV" % (path, CSV_LIMIT >> 20))
        try:
            yield raw.decode("utf-8")
        except UnicodeDecodeError:
            bad("%s: line %d: not UTF-8 text" % (path, n))


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


def lines(rows, a):
    by = [b for b in a.by.split(",") if b]
    check(rows, a.x, a.y, *by)
    groups = OrderedDict()
    for r in rows:
        x, y = number(r[a.x]), number(r[a.y])
        if x is None or y is None:
            continue
        groups.setdefault(tuple(r[b] for b in by), []).append((x, y))
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, pts in groups.items():
        pts.sort()
        label = plain(", ".join(f"{b}={k}" for b, k in zip(by, key)) or a.y, 80)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
    ax.set_xlabel(plain(a.x))
    ax.set_ylabel(plain(a.y))
    if a.logx:
        ax.set_xscale("log")
    if a.logy:
        ax.set_yscale("log")
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    ax.set_title(plain(a.title or f"{a.y} by {a.x}", 80))
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
    ax.set_title(plain(a.title or (f"{a.y}: {a.ratio}" if a.ratio else a.y), 80))
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
