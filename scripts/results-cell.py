#!/usr/bin/python3
"""One cell of the docs/results table, recomputed: classic / v48 on one
recording, as the table shows it (its direction, its interval).

    scripts/results-cell.py [--own-expiries] [--timersim BIN] TRACE

It sweeps the trace through classic and v48 as the results spec does (a
spec of one trace in a temporary folder: the same cells `make results`
runs, with the cost model the spec names, if any) and prints the row's figures through
scripts/results_rows.py, the code that writes the table.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_rows as rr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spec_value(path, key):
    """KEY's value in the SPEC, resolved against its folder; None without one."""
    with open(path) as f:
        for line in f:
            k, _, v = line.split("#")[0].partition("=")
            if k.strip() == key:
                return os.path.abspath(os.path.join(os.path.dirname(path), v.strip()))
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--own-expiries", action="store_true")
    # The tree's build, else the timersim first on PATH (a checked-out
    # copy with no build of its own: the docs test under check-asan puts
    # the ASan build there).
    built = os.path.join(ROOT, "build/timersim")
    ap.add_argument("--timersim", default=built if os.path.exists(built) else (shutil.which("timersim") or built))
    a = ap.parse_args()
    # The cost model the results spec imposes, if it names one (else the
    # replay's own: self-calibrated where the trace allows, the reference).
    model = spec_value(os.path.join(ROOT, "docs/results/recordings.spec"), "cost_model")
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "cell.spec")
        with open(spec, "w") as f:
            f.write(f"trace = {os.path.abspath(a.trace)}\nscheme = classic, v48\n"
                    f"expiries = {'own' if a.own_expiries else 'recorded'}\n"
                    + (f"cost_model = {model}\n" if model else ""))
        for args in (["sweep", spec, "-j", "2"], ["merge", spec, "-o", os.path.join(tmp, "cell.csv")]):
            p = subprocess.run([a.timersim, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode:
                sys.exit(p.stderr.strip() or f"results-cell: timersim {args[0]} failed")
        pairs = rr.pairs(rr.load([os.path.join(tmp, "cell.csv")]))
    print(rr.cell_line(pairs[0]))


if __name__ == "__main__":
    main()
