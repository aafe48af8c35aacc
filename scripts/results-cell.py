#!/usr/bin/python3
"""One cell of the docs/results table, recomputed: classic / v48 on one
recording, as the table shows it (its direction, its interval).

    scripts/results-cell.py [--own-expiries] [--timersim BIN] TRACE

It sweeps the trace through classic and v48 with the cost model the
results specs name (a spec of one trace in a temporary folder: the same
cells `make results` runs) and prints the row's figures through
scripts/results_rows.py, the code that writes the table.
"""
import argparse
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import results_rows as rr  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spec_value(path, key):
    with open(path) as f:
        for line in f:
            k, _, v = line.split("#")[0].partition("=")
            if k.strip() == key:
                return os.path.join(os.path.dirname(path), v.strip())
    sys.exit(f"results-cell: {path} has no {key}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("trace")
    ap.add_argument("--own-expiries", action="store_true")
    ap.add_argument("--timersim", default=os.path.join(ROOT, "build/timersim"))
    a = ap.parse_args()
    model = os.path.abspath(spec_value(os.path.join(ROOT, "docs/results/recordings.spec"), "cost_model"))
    with tempfile.TemporaryDirectory() as tmp:
        spec = os.path.join(tmp, "cell.spec")
        with open(spec, "w") as f:
            f.write(f"trace = {os.path.abspath(a.trace)}\ncost_model = {model}\nscheme = classic, v48\n"
                    f"expiries = {'own' if a.own_expiries else 'recorded'}\n")
        for args in (["sweep", spec, "-j", "2"], ["merge", spec, "-o", os.path.join(tmp, "cell.csv")]):
            p = subprocess.run([a.timersim, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if p.returncode:
                sys.exit(p.stderr.strip() or f"results-cell: timersim {args[0]} failed")
        pairs = rr.pairs(rr.load([os.path.join(tmp, "cell.csv")]))
    p = pairs[0]
    print(f"{p.name} ({p.expiries} expiries): classic / v48 {rr.ratio_text(p, bold=False)}; "
          f"classic {rr.ns_text(p, 'classic')} ms, v48 {rr.ns_text(p, 'v48')} ms")


if __name__ == "__main__":
    main()
