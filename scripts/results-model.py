#!/usr/bin/python3
"""The modelled table of docs/results: classic and v48 priced by the fitted
softirq-run cost model, beside what each recording measured.

    scripts/results-model.py TIMERSIM MODEL.json TRACE... > model-table.md

For each trace, `timersim compare --schemes classic,v48 --cost-model MODEL`
gives each scheme's modelled timer softirq overhead (the model's point
estimate and the 95% interval of its bootstrap) and, where the trace holds
the softirq events, the overhead the recording kernel measured. The ratio's
interval is the conservative one (classic's low over v48's high, classic's
high over v48's low). Cascade moves are listed unpriced: no recording of a
kernel that cascades on this machine exists, so the model has no relink
cost (docs/results/cost-model/fit.txt).
"""
import json
import os
import subprocess
import sys
import tempfile


def ms(ns):
    return f"{ns / 1e6:,.2f}"


def row(timersim, model, trace):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "c.json")
        subprocess.run([timersim, "compare", "--schemes", "classic,v48", "--cost-model", model,
                        "--json", out, trace], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(out) as f:
            schemes = {s["scheme"]["name"]: s for s in json.load(f)["schemes"]}
    c, v = schemes["classic"], schemes["v48"]
    cm, vm = c["modelled"], v["modelled"]
    measured = c["measured"]["timer_softirq"]
    kernel = c["input"]["kernel_scheme"]
    name = trace.split("traces/")[-1] if "traces/" in trace else os.path.basename(trace)
    meas = f"{ms(measured['overhead_ns'])} ({kernel})" if measured else "not recorded"
    ratio = cm["softirq_overhead_ns"] / vm["softirq_overhead_ns"]
    lo = cm["softirq_overhead_low_ns"] / vm["softirq_overhead_high_ns"]
    hi = cm["softirq_overhead_high_ns"] / vm["softirq_overhead_low_ns"]
    seconds = c["input"]["last_seconds"] - c["input"]["first_seconds"]
    return (f"| {name} | {c['input']['kernel']} | {seconds:.1f} | {meas} | "
            f"{ms(cm['softirq_overhead_ns'])} ({ms(cm['softirq_overhead_low_ns'])}-{ms(cm['softirq_overhead_high_ns'])}) | "
            f"{ms(vm['softirq_overhead_ns'])} ({ms(vm['softirq_overhead_low_ns'])}-{ms(vm['softirq_overhead_high_ns'])}) | "
            f"**{ratio:.2f}x** ({lo:.2f}-{hi:.2f}) | {cm['runs']:,} / {vm['runs']:,} | "
            f"{c['cascade']['moved_total']:,} |")


def main():
    if len(sys.argv) < 4:
        sys.exit("usage: results-model.py TIMERSIM MODEL.json TRACE...")
    timersim, model, traces = sys.argv[1], sys.argv[2], sys.argv[3:]
    print("### Modelled by the fitted cost model (measured where the trace recorded it)")
    print()
    print("| recording | kernel | s | measured ms (its kernel's scheme) | classic modelled ms (95%) | "
          "v48 modelled ms (95%) | classic / v48 | softirq runs classic / v48 | cascade moves (unpriced) |")
    print("|---|---|---|---|---|---|---|---|---|")
    for t in traces:
        print(row(timersim, model, t))


if __name__ == "__main__":
    main()
