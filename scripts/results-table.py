#!/usr/bin/python3
"""The results table of docs/results from a merged sweep CSV.

    scripts/results-table.py SWEEP.csv... > TABLE.md

One row per input (a recording, or a generated workload at one HZ and
scale) and per way of treating its expiries, with classic and v48 side by
side: the estimated timer softirq time of each (cost units x calibrated ns
per unit, see docs/sweeps.md: estimates) and their ratio, the ticks each processed,
classic's cascade moves, and the share of timer armings that expired (the
rest were canceled or re-armed first).
"""
import csv
import sys
from collections import OrderedDict


def num(v, fmt="{:,.0f}"):
    if v in ("", None):
        return "-"
    return fmt.format(float(v))


def estimate(r):
    """The softirq estimate, with the calibration's range where it has one."""
    if r.get("softirq_us_lo") in ("", None):
        return num(r["softirq_us"])
    return "{} ({}-{})".format(num(r["softirq_us"]), num(r["softirq_us_lo"]), num(r["softirq_us_hi"]))


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: results-table.py SWEEP.csv...")
    rows = []
    for path in sys.argv[1:]:
        rows += list(csv.DictReader(open(path, newline="")))
    groups = OrderedDict()
    for r in rows:
        key = (r["input_kind"], r["input"], r["recorded_hz"], r["hz"], r["cpus"], r["scale"], r["expiries"])
        groups.setdefault(key, {})[r["scheme"]] = r

    def table(kind):
        out = []
        if kind == "trace":
            out.append("| recording | kernel | HZ | CPUs | s | expiries | armings | expired | "
                       "classic softirq us | v48 softirq us | classic / v48 | ticks classic / v48 | "
                       "cascade moves | total us classic / v48 |")
        else:
            out.append("| workload | HZ | CPUs | scale | expiries | armings | expired | "
                       "classic softirq us | v48 softirq us | classic / v48 | ticks classic / v48 | "
                       "cascade moves | total us classic / v48 |")
        out.append("|" + "---|" * (out[0].count("|") - 1))
        for key, by in groups.items():
            if key[0] != kind or "classic" not in by or "v48" not in by:
                continue
            c, v = by["classic"], by["v48"]
            # The share of armings that expired, as the trace recorded it.
            ended = float(c["timers_started"]) - float(c["pending_at_end"])
            recorded = float(c["fidelity_compared"])
            expired = "-" if key[6] == "own" or ended <= 0 else "{:.1%}".format(recorded / ended)
            cs, vs = c["softirq_us"], v["softirq_us"]
            ratio = "-" if not cs or not vs or float(vs) == 0 else "{:.2f}x".format(float(cs) / float(vs))
            ticks = "{} / {}".format(num(c["ticks"]), num(v["ticks"]))
            total = "{} / {}".format(num(c["total_us"]), num(v["total_us"]))
            if kind == "trace":
                name = key[1].split("traces/")[-1].split("data/")[-1]
                out.append("| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | **{}** | {} | {} | {} |".format(
                    name, c["kernel"].split(" (")[0], c["hz"], c["cpus"], num(c["seconds"], "{:.1f}"),
                    key[6], num(c["timers_started"]), expired, estimate(c), estimate(v), ratio, ticks,
                    num(c["moved_total"]), total))
            else:
                out.append("| webserver | {} | {} | {:g} | {} | {} | {} | {} | {} | **{}** | {} | {} | {} |".format(
                    c["hz"], c["cpus"], float(c["scale"]), key[6], num(c["timers_started"]), expired, estimate(c), estimate(v),
                    ratio, ticks, num(c["moved_total"]), total))
        return "\n".join(out)

    print("### Recordings\n")
    print(table("trace"))
    print("\n### Generated webserver workloads (6.x traces, 10 s, 4 CPUs)\n")
    print(table("workload"))


if __name__ == "__main__":
    main()
