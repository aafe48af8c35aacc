#!/usr/bin/python3
"""Prints docs/fidelity.md's hrtimer tables from `timersim replay --json`:
the same interrupt and the interrupts per recording, the misses by cause,
and the hrtimer column of the must-holds (the text around the figures,
such as linux-6.18-tcp's lost interrupts by cause, is the page's). Run from the checkout (the recordings by relative path):

    scripts/fidelity-tables.py build/timersim > /tmp/tables.md

then paste each table over the one in docs/fidelity.md."""
import json
import subprocess
import sys

RECORDINGS = [
    "tests/data/default-trace.txt.gz",
    "tests/data/busy-idle-trace.txt.gz",
    "tests/data/measured-idle.txt.gz",
    "tests/data/measured-network.txt.gz",
    "tests/data/measured-network-quiet.txt.gz",
    "tests/data/sleep-net.txt.gz",
    "tests/data/sleep-net.perf-script.txt.gz",
    "tests/data/idle-nohz.txt.gz",
    "tests/data/load.txt.gz",
    "tests/data/calibration/loaded-busy-idle.txt.gz",
    "tests/data/calibration/loaded-idle.txt.gz",
    "tests/data/calibration/loaded-mixed.txt.gz",
    "tests/data/calibration/loaded-network.txt.gz",
    "../shared/traces/linux-6.18-http/trace.txt",
    "../shared/traces/linux-6.18-tcp/perf-script.txt",
    "../shared/traces/linux-3.6-scp_dest/trace.txt",
]

CAUSES = [("softirq_after_later_interrupt", "softirq after a later interrupt"),
          ("slack_order", "earlier in its slack range"),
          ("later_pass", "later pass"),
          ("queued_on_other_cpu", "queued on another CPU"),
          ("arm_not_captured", "arm not captured (the trace's)"),
          ("unexplained", "unexplained")]


def hrtimers(binary, path):
    out = subprocess.run([binary, "replay", "--json", "-", path], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out)["hrtimers"]


def same_interrupt(h):
    same, arms = h["traced_arms_same_interrupt"], h["traced_arms"]
    return f"{same} of {arms} ({100.0 * same / arms:.2f}%)" if arms else "-"


def signed(part, whole):
    return f"{100.0 * part / whole:+.2f}%" if whole else "-"


def interrupts_table(rows):
    print("| recording | same interrupt, of the arms the trace shows | other interrupt | not yet due "
          "| interrupts recorded / predicted | the trace's | predicted (less lost) against the rest "
          "| tick stops inferred |")
    print("|---|---|---|---|---|---|---|---|")
    for path, h in rows:
        if not h or "sleep-net.perf-script" in path or "calibration" in path:
            continue
        rec = sum(c["recorded_interrupts"] for c in h["cpus"])
        pred = sum(c["predicted_interrupts"] for c in h["cpus"])
        rec_tc = sum(c["recorded_trace_caused"] for c in h["cpus"])
        lost = sum(c["predicted_trace_caused"] for c in h["cpus"])
        same, arms = h["traced_arms_same_interrupt"], h["traced_arms"]
        trace = f"{rec_tc:,}" + (f" (and {lost:,} lost)" if lost else "")
        cells = [f"`{path}`", f"{same:,} of {arms:,} ({100.0 * same / arms:.2f}%)",
                 f"{h['other_interrupt']:,}", f"{h['late']:,}",
                 f"{rec:,} / {pred:,} ({signed(pred - rec, rec)})", trace,
                 signed((pred - lost) - (rec - rec_tc), rec - rec_tc), f"{h['tick_stops_inferred']:,}"]
        print("| " + " | ".join(cells) + " |")
    print()


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "build/timersim"
    rows = [(p, hrtimers(binary, p)) for p in RECORDINGS]
    interrupts_table(rows)
    head = ["recording", "same interrupt, of the arms the trace shows", "other interrupt",
            "not yet due"] + [name for _, name in CAUSES]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for path, h in rows:
        if not h:
            continue
        cells = [f"`{path}`", same_interrupt(h), str(h["other_interrupt"]), str(h["late"])]
        cells += [str(h["miss_causes"][key]) for key, _ in CAUSES]
        print("| " + " | ".join(cells) + " |")
    print()
    print("| recording | hrtimers, same interrupt |")
    print("|---|---|")
    for path, h in rows:
        if h:
            print(f"| `{path}` | {same_interrupt(h).split('(')[1].rstrip(')')} |")


if __name__ == "__main__":
    main()
