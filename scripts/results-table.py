#!/usr/bin/python3
"""The results table of docs/results from merged sweep CSVs.

    scripts/results-table.py SWEEP.csv... > TABLE.md

One row per input (a recording, or a generated workload at one HZ and
scale) and per way of treating its expiries, classic and v48 side by side:
the timer softirq's own overhead in ms over the input (measured where the
recording kernel ran that scheme and recorded it, else modelled by the
replay's own cost model, with its interval; the recordings' `model`
column says which: self-calibrated on the recording, or the reference),
their ratio with its interval
(scripts/results_rows.py: the one implementation of both), the ticks each
processed and classic's cascade moves, which the model does not price.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_rows as rr  # noqa: E402


def n(v, fmt="{:,.0f}"):
    return "-" if v in ("", None) else fmt.format(float(v))


def table(pairs, kind):
    if kind == "trace":
        out = ["| recording | kernel | HZ | CPUs | s | expiries | model | classic ms | v48 ms | "
               "classic / v48 | ticks classic / v48 | cascade moves |"]
    else:
        out = ["| workload | HZ | CPUs | scale | expiries | armings | classic ms | v48 ms | "
               "classic / v48 | ticks classic / v48 | cascade moves |"]
    out.append("|" + "---|" * (out[0].count("|") - 1))
    for p in pairs:
        if p.kind != kind:
            continue
        c, v = p.c, p.v
        ticks = f"{n(c['ticks'])} / {n(v['ticks'])}"
        common = (f"{rr.ns_text(p, 'classic')} | {rr.ns_text(p, 'v48')} | {rr.ratio_text(p)} | {ticks} | "
                  f"{n(c['moved_total'])} |")
        if kind == "trace":
            out.append(f"| {p.name} | {c['kernel'].split(' (')[0]} | {c['hz']} | {c['cpus']} | "
                       f"{n(c['seconds'], '{:.1f}')} | {p.expiries} | {p.modelled_by} | " + common)
        else:
            out.append(f"| webserver | {c['hz']} | {c['cpus']} | {float(c['scale']):g} | {p.expiries} | "
                       f"{n(c['timers_started'])} | " + common)
    return "\n".join(out)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: results-table.py SWEEP.csv...")
    pairs = rr.pairs(rr.load(sys.argv[1:]))
    print("### Recordings\n")
    print(table(pairs, "trace"))
    print("\n### Generated webserver workloads (6.x traces, 10 s, 4 CPUs)\n")
    print(table(pairs, "workload"))


if __name__ == "__main__":
    main()
