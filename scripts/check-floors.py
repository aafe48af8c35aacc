#!/usr/bin/python3
"""No include runs up a floor.

sim/ is built in floors, each folder on one; a source may include its own
folder and the floors below it, never a floor above or a folder beside it
on its own floor. The table is the pipeline a reader of the tree sees:

    trace -> stream -> schemes, hrtimer, ticks, measured -> replay driver
          -> reports and output -> what-ifs, lab, view, gen -> sweep -> tools

A new folder must be given a floor here (the check fails until it is).
Exit 1 with one line per include that breaks the rule.
"""
import os
import re
import sys

FLOORS = [
    ["base"],                   # errors, ids, interner, JSON writer: no sim/ include
    ["trace"],                  # the readers: files -> trace_event
    ["stream"],                 # look-ahead stream, block parse, trace shape
    ["scheme", "measured"],     # schemes behind one interface; measured CPU time
    ["ticks"],                  # the tick: recorded or every jiffy
    ["hrtimer"],                # the hrtimer half (its tick is ticks/')
    ["replay"],                 # the replay driver, engines, cost accounting
    ["report", "output"],       # text/JSON reports; CSV, Perfetto, logs
    ["whatif", "estimate", "lab"],
    ["gen", "view"],
    ["sweep"],
]
FLOOR = {d: i for i, ds in enumerate(FLOORS) for d in ds}
INCLUDE = re.compile(r'\s*#\s*include\s+"sim/(\w+)/')


def main(root):
    bad = []
    sim = os.path.join(root, "sim")
    for d in sorted(os.listdir(sim)):
        if not os.path.isdir(os.path.join(sim, d)):
            continue
        if d not in FLOOR:
            bad.append(f"sim/{d}/: a folder with no floor in scripts/check-floors.py")
            continue
        for f in sorted(os.listdir(os.path.join(sim, d))):
            path = os.path.join(sim, d, f)
            with open(path, errors="replace") as src:
                for n, line in enumerate(src, 1):
                    m = INCLUDE.match(line)
                    if not m or m.group(1) == d:
                        continue
                    to = m.group(1)
                    if FLOOR.get(to, len(FLOORS)) >= FLOOR[d]:
                        bad.append(f"sim/{d}/{f}:{n}: includes sim/{to}/, "
                                   f"which is not below sim/{d}/")
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "."))
