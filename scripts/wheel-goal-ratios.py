#!/usr/bin/python3
"""The wheel goals' ratios, from one run of bench_wheel_goals:

    scripts/wheel-goal-ratios.py build/bench/bench_wheel_goals.json

For each workload (rearm, short) and wheel (classic, v48): ns per operation
of the raw wheel and of the same loop through the scheme layer, and their
ratio against issue 13's goal of 1.3x. Both figures come from the same run
(the same machine load), which is what makes the ratio worth reading on a
shared machine; the steadier figure, instructions per operation, needs
callgrind and is in docs/speed.md.
"""
import json
import sys

GOAL = 1.3


def ns_per_op(bench):
    """name -> ns per operation (the mean when there are repetitions)."""
    runs = {}
    for b in bench.get("benchmarks", []):
        if b.get("run_type") == "aggregate" or "ns_per_op" not in b:
            continue
        # goals/WORKLOAD/IMPL, then the run's settings (/min_time:0.500).
        name = "/".join(b.get("run_name", b["name"]).split("/")[:3])
        if not name.startswith("goals/"):
            continue
        runs.setdefault(name, []).append(b["ns_per_op"] * 1e9)  # stored in seconds
    return {name: sum(v) / len(v) for name, v in runs.items()}


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: wheel-goal-ratios.py bench_wheel_goals.json")
    try:
        with open(sys.argv[1]) as f:
            ns = ns_per_op(json.load(f))
    except (OSError, ValueError) as e:
        sys.exit(f"{sys.argv[1]}: {e}")
    rows = []
    for workload in ("rearm", "short"):
        for wheel in ("classic", "v48"):
            raw = ns.get(f"goals/{workload}/{wheel}")
            layer = ns.get(f"goals/{workload}/scheme-{wheel}")
            if raw and layer:
                rows.append((workload, wheel, raw, layer))
    if not rows:
        sys.exit(f"{sys.argv[1]}: no goals/ benchmarks with ns_per_op")
    print("scheme layer against the raw wheel (goal <= %.1fx), one run:" % GOAL)
    for workload, wheel, raw, layer in rows:
        ratio = layer / raw
        verdict = "met" if ratio <= GOAL else "not met"
        print(f"  {workload:<5} {wheel:<7} raw {raw:6.1f} ns  scheme {layer:6.1f} ns  "
              f"{ratio:4.2f}x  {verdict}")


if __name__ == "__main__":
    main()
