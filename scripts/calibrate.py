#!/usr/bin/python3
"""Turns bench_calibrate's Google Benchmark JSON into timersim's calibration.

    scripts/calibrate.py build/bench/bench_calibrate.json OUT.json

Per scheme: ns per cost unit on each workload (process CPU time of one run
divided by the cost units it counted), and their geometric mean, the
`ns_per_unit` that `compare --estimate` and sweeps use. min and max show
how far a single number per scheme is from each workload.
"""
import json
import math
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: calibrate.py BENCH.json OUT.json")
    src, dst = sys.argv[1], sys.argv[2]
    with open(src) as f:
        bench = json.load(f)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    per = {}
    for b in bench.get("benchmarks", []):
        parts = b["name"].split("/")
        if len(parts) < 3 or parts[0] != "calibrate" or b.get("run_type") == "aggregate":
            continue
        scheme, workload = parts[1], parts[2]
        units = b.get("units")
        if not units:
            continue
        ns = b["cpu_time"] * scale[b.get("time_unit", "ns")]
        per.setdefault(scheme, {})[workload] = ns / units
    if not per:
        sys.exit(f"calibrate.py: {src}: no calibrate/SCHEME/WORKLOAD benchmarks with a units counter")
    ctx = bench.get("context", {})
    out = {
        "what": "nanoseconds of CPU time per cost unit, per scheme "
                "(tests/bench/bench_calibrate.cc on this machine)",
        "host": ctx.get("host_name", ""),
        "date": ctx.get("date", ""),
        "num_cpus": ctx.get("num_cpus", 0),
        "mhz_per_cpu": ctx.get("mhz_per_cpu", 0),
        "library_build_type": ctx.get("library_build_type", ""),
        "schemes": {},
    }
    for scheme in sorted(per):
        vals = per[scheme]
        gmean = math.exp(sum(math.log(v) for v in vals.values()) / len(vals))
        out["schemes"][scheme] = {
            "ns_per_unit": round(gmean, 4),
            "min": round(min(vals.values()), 4),
            "max": round(max(vals.values()), 4),
            "workloads": {w: round(v, 4) for w, v in sorted(vals.items())},
        }
    tmp = dst + ".tmp"
    with open(tmp, "w") as f:
        json.dump(out, f, indent=2)
        f.write("\n")
    os.replace(tmp, dst)
    for s, v in out["schemes"].items():
        print(f"{s:16s} {v['ns_per_unit']:8.2f} ns/unit  (workloads {v['min']:.2f} .. {v['max']:.2f})")


if __name__ == "__main__":
    main()
