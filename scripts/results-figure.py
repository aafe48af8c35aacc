#!/usr/bin/python3
"""The headline of docs/results as a figure: classic / v48, the timer
softirq's own overhead, on every recording and generated workload of the
results sweeps, each with its interval (scripts/results_rows.py: the
model's held-out fits where both sides are modelled); a filled marker where one side
is what the recording kernel measured (its own scheme), a hollow one where
both sides are modelled.

    scripts/results-figure.py SWEEP.csv... -o headline.png

The ratios and intervals are scripts/results_rows.py's, as in the table.
"""
import argparse
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_rows as rr  # noqa: E402


def label(p):
    if p.kind == "trace":
        name = p.name
        return f"{name} ({p.expiries})" if p.expiries != "recorded" else name
    return f"webserver HZ {p.c['hz']} x{float(p.c['scale']):g}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("csv", nargs="+")
    ap.add_argument("-o", "--output", required=True)
    a = ap.parse_args()
    pairs = [p for p in rr.pairs(rr.load(a.csv)) if p.ratio() is not None]
    if not pairs:
        sys.exit("results-figure: no classic/v48 pair with the softirq_ns columns (a spec without cost_model?)")
    rows = list(reversed(pairs))	# the first at the top
    fig, ax = plt.subplots(figsize=(8, 0.32 * len(rows) + 1.6))
    for i, p in enumerate(rows):
        x, lo, hi = p.ratio()
        measured = p.measured("v48") or p.measured("classic")
        color = "#1f77b4" if p.kind == "trace" else "#d62728"
        ax.errorbar([x], [i], xerr=[[x - lo], [hi - x]], fmt="o", color=color, capsize=3,
                    markerfacecolor=color if measured else "white", markersize=6)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([label(p) for p in rows], fontsize=8)
    ax.axvline(1, color="grey", lw=0.8)
    ax.axvspan(2, 6, color="green", alpha=0.07)
    ax.text(2.05, len(rows) - 0.5, "Gleixner 2016: 2-6x", fontsize=7, color="green", va="top")
    ax.set_xlabel("classic / v48, timer softirq overhead\n(interval: the model's held-out fits; one side measured: the other's interval)")
    ax.set_title("classic vs v48: recordings (blue), generated webservers (red);\n"
                 "filled: one side measured by the recording kernel, hollow: both modelled", fontsize=9)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    fig.tight_layout()
    fig.savefig(a.output, dpi=110)


if __name__ == "__main__":
    main()
